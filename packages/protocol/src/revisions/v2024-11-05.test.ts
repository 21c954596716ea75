import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import { revision_2024_11_05 as revision } from './v2024-11-05.js';

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

/** A message as written in the specification. */
type Message = { [key: string]: unknown };

/** Checks a request and its response against the envelope and the method's schemas. */
function exchange(request: Message, response: Message): void {
  const spec = requestSpec(String(request.method));
  accepts(revision.schemas.JsonRpcMessage, request);
  accepts(spec.params, request.params ?? {});
  accepts(revision.schemas.JsonRpcMessage, response);
  accepts(spec.result, response.result);
}

/** Checks a notification against the envelope and its params schema. */
function notifies(message: Message): void {
  accepts(revision.schemas.JsonRpcMessage, message);
  accepts(notificationSpec(String(message.method)).params, message.params ?? {});
}

describe('revision 2024-11-05', () => {
  describe('#version', () => {
    it('is a legacy revision without batching', () => {
      expect(revision.version).toBe('2024-11-05');
      expect(revision.era).toBe('legacy');
      expect(revision.features.batching).toBe(false);
    });
  });

  describe('#requests', () => {
    it('lists every request of the revision with its direction', () => {
      const directions = Object.fromEntries(Object.entries(revision.requests).map(([method, spec]) => [method, spec.direction]));
      expect(directions).toEqual({
        initialize: 'clientToServer',
        ping: 'both',
        'resources/list': 'clientToServer',
        'resources/templates/list': 'clientToServer',
        'resources/read': 'clientToServer',
        'resources/subscribe': 'clientToServer',
        'resources/unsubscribe': 'clientToServer',
        'prompts/list': 'clientToServer',
        'prompts/get': 'clientToServer',
        'tools/list': 'clientToServer',
        'tools/call': 'clientToServer',
        'logging/setLevel': 'clientToServer',
        'completion/complete': 'clientToServer',
        'sampling/createMessage': 'serverToClient',
        'roots/list': 'serverToClient',
      });
    });

    it('accepts {} and _meta as params of methods without params', () => {
      for (const method of ['ping', 'roots/list', 'tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']) {
        accepts(requestSpec(method).params, {});
        accepts(requestSpec(method).params, { _meta: { progressToken: 7 } });
      }
    });
  });

  describe('#notifications', () => {
    it('lists every notification of the revision with its direction', () => {
      const directions = Object.fromEntries(Object.entries(revision.notifications).map(([method, spec]) => [method, spec.direction]));
      expect(directions).toEqual({
        'notifications/initialized': 'clientToServer',
        'notifications/cancelled': 'both',
        'notifications/progress': 'both',
        'notifications/message': 'serverToClient',
        'notifications/resources/updated': 'serverToClient',
        'notifications/resources/list_changed': 'serverToClient',
        'notifications/tools/list_changed': 'serverToClient',
        'notifications/prompts/list_changed': 'serverToClient',
        'notifications/roots/list_changed': 'clientToServer',
      });
    });
  });

  describe('specification examples', () => {
    it('accepts the initialize exchange', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2024-11-05',
            capabilities: { roots: { listChanged: true }, sampling: {} },
            clientInfo: { name: 'ExampleClient', version: '1.0.0' },
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion: '2024-11-05',
            capabilities: {
              logging: {},
              prompts: { listChanged: true },
              resources: { subscribe: true, listChanged: true },
              tools: { listChanged: true },
            },
            serverInfo: { name: 'ExampleServer', version: '1.0.0' },
          },
        },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/initialized' });
    });

    it('accepts the unsupported-version error response', () => {
      accepts(revision.schemas.JsonRpcMessage, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32602, message: 'Unsupported protocol version', data: { supported: ['2024-11-05'], requested: '1.0.0' } },
      });
    });

    it('accepts ping, cancellation and progress', () => {
      exchange({ jsonrpc: '2.0', id: '123', method: 'ping' }, { jsonrpc: '2.0', id: '123', result: {} });
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: '123', reason: 'User requested cancellation' },
      });
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 1, method: 'some_method', params: { _meta: { progressToken: 'abc123' } } });
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'abc123', progress: 50, total: 100 },
      });
    });

    it('accepts roots/list and its errors', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'roots/list' },
        {
          jsonrpc: '2.0',
          id: 1,
          result: { roots: [{ uri: 'file:///home/user/projects/myproject', name: 'My Project' }] },
        },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
      accepts(revision.schemas.JsonRpcMessage, {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: 'Roots not supported', data: { reason: 'Client does not have roots capability' } },
      });
    });

    it('accepts sampling/createMessage', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            modelPreferences: { hints: [{ name: 'claude-3-sonnet' }], intelligencePriority: 0.8, speedPriority: 0.5 },
            systemPrompt: 'You are a helpful assistant.',
            maxTokens: 100,
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            role: 'assistant',
            content: { type: 'text', text: 'The capital of France is Paris.' },
            model: 'claude-3-sonnet-20240307',
            stopReason: 'endTurn',
          },
        },
      );
      accepts(revision.schemas.SamplingMessage, {
        role: 'user',
        content: { type: 'image', data: 'base64-encoded-image-data', mimeType: 'image/jpeg' },
      });
    });

    it('accepts the prompts exchanges', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'prompts/list', params: { cursor: 'optional-cursor-value' } },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            prompts: [
              {
                name: 'code_review',
                description: 'Asks the LLM to analyze code quality and suggest improvements',
                arguments: [{ name: 'code', description: 'The code to review', required: true }],
              },
            ],
            nextCursor: 'next-page-cursor',
          },
        },
      );
      exchange(
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'prompts/get',
          params: { name: 'code_review', arguments: { code: "def hello():\n    print('world')" } },
        },
        {
          jsonrpc: '2.0',
          id: 2,
          result: {
            description: 'Code review prompt',
            messages: [{ role: 'user', content: { type: 'text', text: "Please review this Python code:\ndef hello():\n    print('world')" } }],
          },
        },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/prompts/list_changed' });
      accepts(revision.schemas.PromptMessage, {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'resource://example', mimeType: 'text/plain', text: 'Resource content' } },
      });
    });

    it('accepts the resources exchanges', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'resources/list', params: { cursor: 'optional-cursor-value' } },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            resources: [
              { uri: 'file:///project/src/main.rs', name: 'main.rs', description: 'Primary application entry point', mimeType: 'text/x-rust' },
            ],
            nextCursor: 'next-page-cursor',
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///project/src/main.rs' } },
        {
          jsonrpc: '2.0',
          id: 2,
          result: {
            contents: [{ uri: 'file:///project/src/main.rs', mimeType: 'text/x-rust', text: 'fn main() {\n    println!("Hello world!");\n}' }],
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 3, method: 'resources/templates/list', params: { cursor: 'optional-cursor-value' } },
        {
          jsonrpc: '2.0',
          id: 3,
          result: {
            resourceTemplates: [
              {
                uriTemplate: 'file:///{path}',
                name: 'Project Files',
                description: 'Access files in the project directory',
                mimeType: 'application/octet-stream',
              },
            ],
            nextCursor: 'next-page-cursor',
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 4, method: 'resources/subscribe', params: { uri: 'file:///project/src/main.rs' } },
        { jsonrpc: '2.0', id: 4, result: {} },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///project/src/main.rs' },
      });
      accepts(revision.schemas.ResourceContents, { uri: 'file:///example.png', mimeType: 'image/png', blob: 'base64-encoded-data' });
      accepts(revision.schemas.JsonRpcMessage, {
        jsonrpc: '2.0',
        id: 5,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'file:///nonexistent.txt' } },
      });
    });

    it('accepts the tools exchanges', () => {
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'optional-cursor-value' } },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            tools: [
              {
                name: 'get_weather',
                description: 'Get current weather information for a location',
                inputSchema: {
                  type: 'object',
                  properties: { location: { type: 'string', description: 'City name or zip code' } },
                  required: ['location'],
                },
              },
            ],
            nextCursor: 'next-page-cursor',
          },
        },
      );
      exchange(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_weather', arguments: { location: 'New York' } } },
        {
          jsonrpc: '2.0',
          id: 2,
          result: {
            content: [{ type: 'text', text: 'Current weather in New York:\nTemperature: 72°F\nConditions: Partly cloudy' }],
            isError: false,
          },
        },
      );
      notifies({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      accepts(revision.schemas.ContentBlock, { type: 'image', data: 'base64-encoded-data', mimeType: 'image/png' });
      accepts(revision.schemas.JsonRpcMessage, { jsonrpc: '2.0', id: 3, error: { code: -32602, message: 'Unknown tool: invalid_tool_name' } });
    });

    it('accepts completion, logging and pagination', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'completion/complete',
          params: { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'language', value: 'py' } },
        },
        { jsonrpc: '2.0', id: 1, result: { completion: { values: ['python', 'pytorch', 'pyside'], total: 10, hasMore: true } } },
      );
      exchange(
        { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'info' } },
        { jsonrpc: '2.0', id: 1, result: {} },
      );
      notifies({
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'error', logger: 'database', data: { error: 'Connection failed', details: { host: 'localhost', port: 5432 } } },
      });
      accepts(requestSpec('resources/list').params, { cursor: 'eyJwYWdlIjogMn0=' });
    });
  });

  describe('rejections', () => {
    it('rejects initialize without clientInfo or with an incomplete Implementation', () => {
      const params = requestSpec('initialize').params;
      rejects(params, { protocolVersion: '2024-11-05', capabilities: {} });
      rejects(params, { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'x' } });
      rejects(revision.schemas.InitializeResult, { protocolVersion: '2024-11-05', capabilities: {} });
    });

    it('rejects an unknown logging level', () => {
      rejects(requestSpec('logging/setLevel').params, { level: 'verbose' });
      rejects(notificationSpec('notifications/message').params, { level: 'trace', data: 'x' });
    });

    it('rejects a log message without data', () => {
      rejects(notificationSpec('notifications/message').params, { level: 'info' });
      accepts(notificationSpec('notifications/message').params, { level: 'info', data: null });
    });

    it('rejects a wrong role, a non-integer request id and a fractional progress token', () => {
      rejects(revision.schemas.PromptMessage, { role: 'system', content: { type: 'text', text: 'x' } });
      rejects(notificationSpec('notifications/cancelled').params, { requestId: 1.5 });
      rejects(notificationSpec('notifications/cancelled').params, {});
      rejects(notificationSpec('notifications/progress').params, { progressToken: 0.5, progress: 1 });
      rejects(requestSpec('ping').params, { _meta: { progressToken: true } });
    });

    it('rejects content types this revision does not have', () => {
      rejects(revision.schemas.ContentBlock, { type: 'audio', data: 'x', mimeType: 'audio/wav' });
      rejects(revision.schemas.ContentBlock, { type: 'resource_link', uri: 'file:///a', name: 'a' });
      rejects(revision.schemas.SamplingMessage, { role: 'user', content: { type: 'resource', resource: { uri: 'a', text: 'b' } } });
    });

    it('rejects an annotation priority outside 0..1 and a tool schema that is not an object schema', () => {
      rejects(revision.schemas.ContentBlock, { type: 'text', text: 'x', annotations: { priority: 2 } });
      rejects(revision.schemas.Tool, { name: 't', inputSchema: { type: 'string' } });
      rejects(revision.schemas.Tool, { name: 't' });
    });

    it('rejects more than 100 completion values', () => {
      const values = Array.from({ length: 101 }, (_, index) => `v${index}`);
      rejects(requestSpec('completion/complete').result, { completion: { values } });
    });

    it('rejects sampling without maxTokens and with an unknown includeContext', () => {
      const params = requestSpec('sampling/createMessage').params;
      rejects(params, { messages: [] });
      rejects(params, { messages: [], maxTokens: 10, includeContext: 'everything' });
    });
  });

  describe('#schemas.JsonRpcMessage', () => {
    const message = revision.schemas.JsonRpcMessage;

    it('rejects a known request whose params are invalid', () => {
      rejects(message, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} });
      rejects(message, { jsonrpc: '2.0', id: 1, method: 'tools/call' });
    });

    it('accepts a request for a method it does not know', () => {
      accepts(message, { jsonrpc: '2.0', id: 9, method: 'vendor/custom', params: { anything: true } });
    });

    it('does not mistake Object.prototype members for methods', () => {
      accepts(message, { jsonrpc: '2.0', id: 10, method: 'toString' });
      accepts(message, { jsonrpc: '2.0', method: 'constructor', params: {} });
      accepts(message, { jsonrpc: '2.0', method: '__proto__' });
    });

    it('keeps unknown members of a message', () => {
      const parsed = message.parse({ jsonrpc: '2.0', id: 1, method: 'ping', extension: { x: 1 } });
      expect(parsed).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping', extension: { x: 1 } });
    });

    it('rejects a notification whose params are invalid, even when it carries no id', () => {
      rejects(message, { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } });
    });

    it('requires the error id, allowing null for an unreadable request id', () => {
      rejects(message, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
      accepts(message, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    });

    it('rejects malformed envelopes', () => {
      rejects(message, { jsonrpc: '1.0', id: 1, method: 'ping' });
      rejects(message, { jsonrpc: '2.0', id: null, method: 'ping' });
      rejects(message, { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } });
      rejects(message, { jsonrpc: '2.0', id: 1, error: { code: 1.5, message: 'x' } });
      rejects(message, { jsonrpc: '2.0', id: 1, result: [] });
      rejects(message, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    });
  });
});
