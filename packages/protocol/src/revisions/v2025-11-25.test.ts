import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import {
  revision_2025_11_25 as revision,
  CreateTaskResult,
  ElicitRequestParams,
  ElicitResult,
  SamplingMessage,
  Task,
} from './v2025-11-25.js';

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

function notificationSpec(method: string) {
  const spec = revision.notifications[method];
  if (spec === undefined) throw new Error(`no notification ${method}`);
  return spec;
}

function exchange(request: Message, response: Message): void {
  const spec = requestSpec(String(request.method));
  accepts(revision.schemas.JsonRpcMessage, request);
  accepts(spec.params, request.params ?? {});
  accepts(revision.schemas.JsonRpcMessage, response);
  accepts(spec.result, response.result);
}

function notifies(message: Message): void {
  accepts(revision.schemas.JsonRpcMessage, message);
  accepts(notificationSpec(String(message.method)).params, message.params ?? {});
}

const TASK_ID = '786512e2-9e0d-44bd-8f29-789f320fe840';
const workingTask = {
  taskId: TASK_ID,
  status: 'working',
  statusMessage: 'The operation is now in progress.',
  createdAt: '2025-11-25T10:30:00Z',
  lastUpdatedAt: '2025-11-25T10:40:00Z',
  ttl: 60000,
  pollInterval: 5000,
};
const weatherTool = {
  name: 'get_weather',
  description: 'Get current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name' } }, required: ['city'] },
};
const urlElicitation = {
  mode: 'url',
  elicitationId: '550e8400-e29b-41d4-a716-446655440000',
  url: 'https://mcp.example.com/ui/set_api_key',
  message: 'Please provide your API key to continue.',
};

describe('revision 2025-11-25', () => {
  describe('#version', () => {
    it('is a legacy revision without batching that exposes the task schemas', () => {
      expect(revision.version).toBe('2025-11-25');
      expect(revision.era).toBe('legacy');
      expect(revision.features.batching).toBe(false);
      expect(revision.schemas.Task).toBe(Task);
      expect(revision.schemas.CreateTaskResult).toBe(CreateTaskResult);
    });
  });

  describe('#requests', () => {
    it('adds the task methods in both directions', () => {
      for (const method of ['tasks/get', 'tasks/result', 'tasks/list', 'tasks/cancel']) {
        expect(requestSpec(method).direction).toBe('both');
      }
      expect(Object.keys(revision.requests)).toHaveLength(20);
    });
  });

  describe('#notifications', () => {
    it('adds elicitation/complete from the server and tasks/status in both directions', () => {
      expect(notificationSpec('notifications/elicitation/complete').direction).toBe('serverToClient');
      expect(notificationSpec('notifications/tasks/status').direction).toBe('both');
      expect(Object.keys(revision.notifications)).toHaveLength(11);
    });
  });

  describe('specification examples', () => {
    it('accepts the initialize exchange with icons, elicitation modes and task capabilities', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {
              roots: { listChanged: true },
              sampling: {},
              elicitation: { form: {}, url: {} },
              tasks: { requests: { elicitation: { create: {} }, sampling: { createMessage: {} } } },
            },
            clientInfo: {
              name: 'ExampleClient',
              title: 'Example Client Display Name',
              version: '1.0.0',
              description: 'An example MCP client application',
              icons: [{ src: 'https://example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
              websiteUrl: 'https://example.com',
            },
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion: '2025-11-25',
            capabilities: {
              logging: {},
              prompts: { listChanged: true },
              resources: { subscribe: true, listChanged: true },
              tools: { listChanged: true },
              tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
            },
            serverInfo: {
              name: 'ExampleServer',
              title: 'Example Server Display Name',
              version: '1.0.0',
              description: 'An example MCP server providing tools and resources',
              icons: [{ src: 'https://example.com/server-icon.svg', mimeType: 'image/svg+xml', sizes: ['any'] }],
              websiteUrl: 'https://example.com/server',
            },
            instructions: 'Optional instructions for the client',
          },
        },
      );
    });

    it('accepts a task-augmented tools/call answered with a CreateTaskResult', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_weather', arguments: { city: 'New York' }, task: { ttl: 60000 } } },
        { jsonrpc: '2.0', id: 1, result: { task: workingTask } },
      );
    });

    it('accepts tasks/get, tasks/result, tasks/list and tasks/cancel', () => {
      exchange(
        { jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { taskId: TASK_ID } },
        { jsonrpc: '2.0', id: 3, result: { ...workingTask, ttl: 30000 } },
      );
      exchange(
        { jsonrpc: '2.0', id: 4, method: 'tasks/result', params: { taskId: TASK_ID } },
        {
          jsonrpc: '2.0',
          id: 4,
          result: {
            content: [{ type: 'text', text: 'Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy' }],
            isError: false,
            _meta: { 'io.modelcontextprotocol/related-task': { taskId: TASK_ID } },
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 5, method: 'tasks/list', params: { cursor: 'optional-cursor-value' } },
        {
          jsonrpc: '2.0',
          id: 5,
          result: {
            tasks: [
              { taskId: TASK_ID, status: 'working', createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:40:00Z', ttl: 30000, pollInterval: 5000 },
              { taskId: 'abc123-def456-ghi789', status: 'completed', createdAt: '2025-11-25T09:15:00Z', lastUpdatedAt: '2025-11-25T10:40:00Z', ttl: 60000 },
            ],
            nextCursor: 'next-page-cursor',
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 6, method: 'tasks/cancel', params: { taskId: TASK_ID } },
        {
          jsonrpc: '2.0',
          id: 6,
          result: { ...workingTask, status: 'cancelled', statusMessage: 'The task was cancelled by request.', ttl: 30000 },
        },
      );
    });

    it('accepts a task status notification, a failed task and task errors', () => {
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/tasks/status',
        params: { taskId: TASK_ID, status: 'completed', createdAt: '2025-11-25T10:30:00Z', lastUpdatedAt: '2025-11-25T10:50:00Z', ttl: 60000, pollInterval: 5000 },
      });
      accepts(requestSpec('tasks/get').result, {
        taskId: TASK_ID,
        status: 'failed',
        createdAt: '2025-11-25T10:30:00Z',
        lastUpdatedAt: '2025-11-25T10:40:00Z',
        ttl: 30000,
        statusMessage: 'Tool execution failed: API rate limit exceeded',
      });
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Task augmentation required for tools/call requests' } });
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 74, error: { code: -32602, message: "Cannot cancel task: already in terminal status 'completed'" } });
    });

    it('accepts form-mode elicitation with an explicit mode', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Please provide your GitHub username',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        { jsonrpc: '2.0', id: 1, result: { action: 'accept', content: { name: 'octocat' } } },
      );
    });

    it('accepts URL-mode elicitation, its completion notification and the -32042 error', () => {
      exchange(
        { jsonrpc: '2.0', id: 3, method: 'elicitation/create', params: urlElicitation },
        { jsonrpc: '2.0', id: 3, result: { action: 'accept' } },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/elicitation/complete', params: { elicitationId: urlElicitation.elicitationId } });
      accepts(revision.schemas.JsonRpcMessage, {
        jsonrpc: '2.0',
        id: 2,
        error: {
          code: -32042,
          message: 'This request requires more information.',
          data: {
            elicitations: [
              {
                mode: 'url',
                elicitationId: '550e8400-e29b-41d4-a716-446655440000',
                url: 'https://mcp.example.com/connect?elicitationId=550e8400-e29b-41d4-a716-446655440000',
                message: 'Authorization is required to access your Example Co files.',
              },
            ],
          },
        },
      });
    });

    it('accepts every requested-schema primitive with defaults', () => {
      accepts(ElicitRequestParams, {
        message: 'Preferences',
        requestedSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            email: {
              type: 'string',
              title: 'Display Name',
              description: 'Description text',
              minLength: 3,
              maxLength: 50,
              pattern: '^[A-Za-z]+$',
              format: 'email',
              default: 'user@example.com',
            },
            amount: { type: 'number', minimum: 0, maximum: 100, default: 50 },
            ok: { type: 'boolean', default: false },
            color: { type: 'string', enum: ['Red', 'Green', 'Blue'], default: 'Red' },
            hex: {
              type: 'string',
              oneOf: [
                { const: '#FF0000', title: 'Red' },
                { const: '#00FF00', title: 'Green' },
              ],
              default: '#FF0000',
            },
            colors: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'string', enum: ['Red', 'Green', 'Blue'] }, default: ['Red', 'Green'] },
            hexes: {
              type: 'array',
              items: {
                anyOf: [
                  { const: '#FF0000', title: 'Red' },
                  { const: '#0000FF', title: 'Blue' },
                ],
              },
              default: ['#FF0000'],
            },
            legacy: { type: 'string', enum: ['a', 'b'], enumNames: ['A', 'B'] },
          },
        },
      });
      accepts(ElicitResult, { action: 'accept', content: { colors: ['Red', 'Green'], amount: 3, ok: true } });
    });

    it('accepts sampling with tools and a tool_use answer', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: "What's the weather like in Paris and London?" } }],
            tools: [weatherTool],
            toolChoice: { mode: 'auto' },
            maxTokens: 1000,
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'call_abc123', name: 'get_weather', input: { city: 'Paris' } },
              { type: 'tool_use', id: 'call_def456', name: 'get_weather', input: { city: 'London' } },
            ],
            model: 'claude-3-sonnet-20240307',
            stopReason: 'toolUse',
          },
        },
      );
    });

    it('accepts a follow-up sampling request carrying tool results', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'sampling/createMessage',
          params: {
            messages: [
              { role: 'user', content: { type: 'text', text: "What's the weather like in Paris and London?" } },
              {
                role: 'assistant',
                content: [
                  { type: 'tool_use', id: 'call_abc123', name: 'get_weather', input: { city: 'Paris' } },
                  { type: 'tool_use', id: 'call_def456', name: 'get_weather', input: { city: 'London' } },
                ],
              },
              {
                role: 'user',
                content: [
                  { type: 'tool_result', toolUseId: 'call_abc123', content: [{ type: 'text', text: 'Weather in Paris: 18°C, partly cloudy' }] },
                  { type: 'tool_result', toolUseId: 'call_def456', content: [{ type: 'text', text: 'Weather in London: 15°C, rainy' }] },
                ],
              },
            ],
            tools: [weatherTool],
            maxTokens: 1000,
          },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          result: { role: 'assistant', content: { type: 'text', text: 'Paris is warmer.' }, model: 'claude-3-sonnet-20240307', stopReason: 'endTurn' },
        },
      );
      accepts(SamplingMessage, {
        role: 'user',
        content: [
          { type: 'text', text: 'Here are the results:' },
          { type: 'tool_result', toolUseId: 'call_123', content: [{ type: 'text', text: 'Result data' }] },
        ],
      });
    });

    it('accepts tools with icons, execution hints, $schema and a closed input schema', () => {
      accepts(revision.schemas.Tool, {
        ...weatherTool,
        icons: [{ src: 'https://example.com/weather-icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
        execution: { taskSupport: 'optional' },
      });
      accepts(revision.schemas.Tool, {
        name: 'calculate_sum',
        inputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'number' } } },
      });
      accepts(revision.schemas.Tool, { name: 'get_current_time', inputSchema: { type: 'object', additionalProperties: false } });
    });

    it('accepts icons on prompts, resources and templates', () => {
      const icons = [{ src: 'https://example.com/i.svg', mimeType: 'image/svg+xml', sizes: ['any'], theme: 'dark' }];
      accepts(revision.schemas.Prompt, { name: 'code_review', icons });
      accepts(revision.schemas.Resource, { uri: 'file:///a', name: 'a', icons });
      accepts(revision.schemas.ResourceTemplate, { uriTemplate: 'file:///{p}', name: 'p', icons });
      accepts(revision.schemas.ContentBlock, { type: 'resource_link', uri: 'file:///a', name: 'a', icons });
    });

    it('accepts an error response without id and a cancellation without requestId', () => {
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
      notifies({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { reason: 'gone' } });
      accepts(requestSpec('ping').params, { _meta: { 'io.modelcontextprotocol/related-task': { taskId: TASK_ID } } });
    });
  });

  describe('rejections', () => {
    it('rejects an unknown task status and a task without timestamps or ttl', () => {
      rejects(Task, { ...workingTask, status: 'running' });
      rejects(Task, { taskId: TASK_ID, status: 'working', ttl: null, createdAt: '2025-11-25T10:30:00Z' });
      rejects(Task, { taskId: TASK_ID, status: 'working', createdAt: 'a', lastUpdatedAt: 'b' });
      accepts(Task, { taskId: TASK_ID, status: 'working', createdAt: 'a', lastUpdatedAt: 'b', ttl: null });
    });

    it('rejects task requests without taskId and a tools/call result that is neither a result nor a task', () => {
      rejects(requestSpec('tasks/get').params, {});
      rejects(requestSpec('tasks/cancel').params, { taskId: 5 });
      rejects(requestSpec('tools/call').result, { task: { taskId: TASK_ID } });
      rejects(requestSpec('tools/call').params, { name: 't', task: { ttl: 'long' } });
    });

    it('rejects URL-mode elicitation without url or elicitationId and an unknown mode', () => {
      rejects(ElicitRequestParams, { ...urlElicitation, url: undefined });
      rejects(ElicitRequestParams, { mode: 'url', message: 'x', url: 'https://a' });
      rejects(ElicitRequestParams, { mode: 'popup', message: 'x', requestedSchema: { type: 'object', properties: {} } });
      rejects(notificationSpec('notifications/elicitation/complete').params, {});
    });

    it('rejects a -32042 error whose data holds no URL elicitations', () => {
      rejects(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 2, error: { code: -32042, message: 'x' } });
      rejects(revision.schemas.JsonRpcMessage, {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32042, message: 'x', data: { elicitations: [{ mode: 'form', message: 'x', requestedSchema: { type: 'object', properties: {} } }] } },
      });
    });

    it('rejects malformed tool use, tool results and tool choice', () => {
      rejects(SamplingMessage, { role: 'assistant', content: { type: 'tool_use', id: '1', name: 't' } });
      rejects(SamplingMessage, { role: 'user', content: [{ type: 'tool_result', content: [] }] });
      rejects(requestSpec('sampling/createMessage').params, { messages: [], maxTokens: 1, toolChoice: { mode: 'always' } });
    });

    it('rejects an unknown taskSupport, icon theme and requested-schema enum shapes', () => {
      rejects(revision.schemas.Tool, { ...weatherTool, execution: { taskSupport: 'sometimes' } });
      rejects(revision.schemas.Implementation, { name: 'n', version: '1', icons: [{ src: 'x', theme: 'blue' }] });
      rejects(revision.schemas.Implementation, { name: 'n', version: '1', icons: [{ mimeType: 'image/png' }] });
      rejects(ElicitRequestParams, { message: 'x', requestedSchema: { type: 'object', properties: { c: { type: 'array', items: { type: 'number' } } } } });
      rejects(ElicitRequestParams, {
        message: 'x',
        requestedSchema: { type: 'object', properties: { c: { type: 'string', oneOf: [{ const: 'a' }] } } },
      });
    });
  });
});
