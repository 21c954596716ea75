import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import { revision_2025_06_18 as revision, ElicitRequestParams, ElicitResult, ResourceLink } from './v2025-06-18.js';

type Message = { [key: string]: unknown };

function accepts(schema: z.ZodMiniType, value: unknown): void {
  const parsed = schema.safeParse(value);
  expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
}

function rejects(schema: z.ZodMiniType, value: unknown): void {
  expect(schema.safeParse(value).success).toBe(false);
}

function requestSpec(method: string) {
  const spec = revision.requests[method];
  if (spec === undefined) throw new Error(`no request ${method}`);
  return spec;
}

function exchange(request: Message, response: Message): void {
  const spec = requestSpec(String(request.method));
  accepts(revision.schemas.JsonRpcMessage, request);
  accepts(spec.params, request.params ?? {});
  accepts(revision.schemas.JsonRpcMessage, response);
  accepts(spec.result, response.result);
}

const weatherTool = {
  name: 'get_weather_data',
  title: 'Weather Data Retriever',
  description: 'Get current weather data for a location',
  inputSchema: {
    type: 'object',
    properties: { location: { type: 'string', description: 'City name or zip code' } },
    required: ['location'],
  },
  outputSchema: {
    type: 'object',
    properties: {
      temperature: { type: 'number', description: 'Temperature in celsius' },
      conditions: { type: 'string', description: 'Weather conditions description' },
      humidity: { type: 'number', description: 'Humidity percentage' },
    },
    required: ['temperature', 'conditions', 'humidity'],
  },
};

describe('revision 2025-06-18', () => {
  describe('#version', () => {
    it('is a legacy revision without batching', () => {
      expect(revision.version).toBe('2025-06-18');
      expect(revision.era).toBe('legacy');
      expect(revision.features.batching).toBe(false);
      expect(revision.schemas.JsonRpcBatch).toBeUndefined();
    });
  });

  describe('#requests', () => {
    it('adds elicitation/create, sent by the server', () => {
      expect(requestSpec('elicitation/create').direction).toBe('serverToClient');
      expect(Object.keys(revision.requests)).toHaveLength(16);
    });
  });

  describe('specification examples', () => {
    it('accepts the initialize exchange with titles and the elicitation capability', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: { roots: { listChanged: true }, sampling: {}, elicitation: {} },
            clientInfo: { name: 'ExampleClient', title: 'Example Client Display Name', version: '1.0.0' },
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion: '2025-06-18',
            capabilities: { logging: {}, prompts: { listChanged: true }, resources: { subscribe: true, listChanged: true }, tools: { listChanged: true } },
            serverInfo: { name: 'ExampleServer', title: 'Example Server Display Name', version: '1.0.0' },
            instructions: 'Optional instructions for the client',
          },
        },
      );
    });

    it('accepts the simple elicitation exchange', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'elicitation/create',
          params: {
            message: 'Please provide your GitHub username',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        { jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { name: 'octocat' } } },
      );
    });

    it('accepts the structured elicitation exchange and its decline and cancel answers', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'elicitation/create',
          params: {
            message: 'Please provide your contact information',
            requestedSchema: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'Your full name' },
                email: { type: 'string', format: 'email', description: 'Your email address' },
                age: { type: 'number', minimum: 18, description: 'Your age' },
              },
              required: ['name', 'email'],
            },
          },
        },
        { jsonrpc: '2.0', id: 2, result: { action: 'accept', content: { name: 'Monalisa Octocat', email: 'octocat@github.com', age: 30 } } },
      );
      accepts(ElicitResult, { action: 'decline' });
      accepts(ElicitResult, { action: 'cancel' });
    });

    it('accepts the requested-schema primitives including enums and booleans', () => {
      accepts(ElicitRequestParams, {
        message: 'Pick',
        requestedSchema: {
          type: 'object',
          properties: {
            propertyName: { type: 'string', title: 'Display Name', description: 'Description of the property' },
            anotherProperty: { type: 'number', minimum: 0, maximum: 100 },
            flag: { type: 'boolean', default: true },
            size: { type: 'string', enum: ['s', 'm', 'l'], enumNames: ['Small', 'Medium', 'Large'] },
            count: { type: 'integer' },
          },
          required: ['propertyName'],
        },
      });
    });

    it('accepts a resource with a title and lastModified annotations', () => {
      accepts(revision.schemas.Resource, {
        uri: 'file:///project/README.md',
        name: 'README.md',
        title: 'Project Documentation',
        mimeType: 'text/markdown',
        annotations: { audience: ['user'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
      });
    });

    it('accepts a resource link and an annotated embedded resource in tool results', () => {
      const link = {
        type: 'resource_link',
        uri: 'file:///project/src/main.rs',
        name: 'main.rs',
        description: 'Primary application entry point',
        mimeType: 'text/x-rust',
        annotations: { audience: ['assistant'], priority: 0.9 },
      };
      const embedded = {
        type: 'resource',
        resource: {
          uri: 'file:///project/src/main.rs',
          mimeType: 'text/x-rust',
          text: 'fn main() {\n    println!("Hello world!");\n}',
          annotations: { audience: ['user', 'assistant'], priority: 0.7, lastModified: '2025-05-03T14:30:00Z' },
        },
      };
      accepts(ResourceLink, link);
      accepts(revision.schemas.CallToolResult, { content: [link, embedded] });
    });

    it('accepts a tool with outputSchema and a result with structuredContent', () => {
      accepts(revision.schemas.Tool, weatherTool);
      exchange(
        { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'get_weather_data', arguments: { location: 'Los Angeles' } } },
        {
          jsonrpc: '2.0',
          id: 5,
          result: {
            content: [{ type: 'text', text: '{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}' }],
            structuredContent: { temperature: 22.5, conditions: 'Partly cloudy', humidity: 65 },
          },
        },
      );
    });

    it('accepts a completion request with context', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'completion/complete',
          params: {
            ref: { type: 'ref/prompt', name: 'code_review' },
            argument: { name: 'framework', value: 'fla' },
            context: { arguments: { language: 'python' } },
          },
        },
        { jsonrpc: '2.0', id: 1, result: { completion: { values: ['flask'], total: 1, hasMore: false } } },
      );
    });

    it('accepts prompts, templates and roots with titles and _meta', () => {
      accepts(revision.schemas.Prompt, {
        name: 'code_review',
        title: 'Request Code Review',
        arguments: [{ name: 'code', title: 'Code', required: true }],
        _meta: { 'example.com/x': 1 },
      });
      accepts(revision.schemas.ResourceTemplate, { uriTemplate: 'file:///{path}', name: 'Project Files', title: '📁 Project Files' });
      accepts(revision.schemas.Root, { uri: 'file:///a', _meta: {} });
    });
  });

  describe('rejections', () => {
    it('rejects an elicitation without message or requestedSchema', () => {
      rejects(ElicitRequestParams, { requestedSchema: { type: 'object', properties: {} } });
      rejects(ElicitRequestParams, { message: 'x' });
    });

    it('rejects nested or unsupported requested-schema properties', () => {
      rejects(ElicitRequestParams, {
        message: 'x',
        requestedSchema: { type: 'object', properties: { nested: { type: 'object', properties: {} } } },
      });
      rejects(ElicitRequestParams, { message: 'x', requestedSchema: { type: 'object', properties: { n: { type: 'string', format: 'phone' } } } });
      rejects(ElicitRequestParams, { message: 'x', requestedSchema: { type: 'array', properties: {} } });
      rejects(ElicitRequestParams, { message: 'x', requestedSchema: { type: 'object', properties: { e: { type: 'string', enum: 'red' } } } });
    });

    it('rejects an unknown action and array values (arrays arrive in 2025-11-25)', () => {
      rejects(ElicitResult, { action: 'accepted' });
      rejects(ElicitResult, {});
      rejects(ElicitResult, { action: 'accept', content: { tags: ['a'] } });
    });

    it('rejects a _meta that is not an object and a title that is not a string', () => {
      rejects(revision.schemas.Tool, { ...weatherTool, _meta: 'x' });
      rejects(revision.schemas.Implementation, { name: 'n', version: '1', title: 3 });
      rejects(revision.schemas.ContentBlock, { type: 'text', text: 'x', _meta: [] });
    });

    it('rejects a resource link without a name and an outputSchema that is not an object schema', () => {
      rejects(ResourceLink, { type: 'resource_link', uri: 'file:///a' });
      rejects(revision.schemas.Tool, { ...weatherTool, outputSchema: { type: 'array' } });
      rejects(revision.schemas.CallToolResult, { content: [], structuredContent: 'text' });
    });

    it('rejects tool_use content, which arrives in 2025-11-25', () => {
      rejects(revision.schemas.SamplingMessage, { role: 'assistant', content: { type: 'tool_use', id: '1', name: 't', input: {} } });
      rejects(revision.schemas.SamplingMessage, { role: 'assistant', content: [{ type: 'text', text: 'x' }] });
    });
  });
});
