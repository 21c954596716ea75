import { describe, it, expect } from 'vitest';
import type * as z from 'zod/mini';
import { revision_2025_03_26 as revision, JsonRpcBatch, ToolAnnotations } from './v2025-03-26.js';

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

describe('revision 2025-03-26', () => {
  describe('#version', () => {
    it('is the only legacy revision with batching', () => {
      expect(revision.version).toBe('2025-03-26');
      expect(revision.era).toBe('legacy');
      expect(revision.features.batching).toBe(true);
      expect(revision.schemas.JsonRpcBatch).toBe(JsonRpcBatch);
    });
  });

  describe('#requests', () => {
    it('has the same methods as 2024-11-05', () => {
      expect(Object.keys(revision.requests).sort()).toEqual(
        [
          'completion/complete',
          'initialize',
          'logging/setLevel',
          'ping',
          'prompts/get',
          'prompts/list',
          'resources/list',
          'resources/read',
          'resources/subscribe',
          'resources/templates/list',
          'resources/unsubscribe',
          'roots/list',
          'sampling/createMessage',
          'tools/call',
          'tools/list',
        ].sort(),
      );
      expect(Object.keys(revision.notifications)).toHaveLength(9);
    });
  });

  describe('specification examples', () => {
    it('accepts an initialize result with instructions and a completions capability', () => {
      exchange(
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-03-26',
            capabilities: { roots: { listChanged: true }, sampling: {} },
            clientInfo: { name: 'ExampleClient', version: '1.0.0' },
          },
        },
        {
          jsonrpc: '2.0',
          id: 1,
          result: {
            protocolVersion: '2025-03-26',
            capabilities: {
              logging: {},
              completions: {},
              prompts: { listChanged: true },
              resources: { subscribe: true, listChanged: true },
              tools: { listChanged: true },
            },
            serverInfo: { name: 'ExampleServer', version: '1.0.0' },
            instructions: 'Optional instructions for the client',
          },
        },
      );
    });

    it('accepts a progress notification with a message', () => {
      const message = {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'abc123', progress: 50, total: 100, message: 'Reticulating splines...' },
      };
      accepts(revision.schemas.JsonRpcMessage, message);
      accepts(notificationSpec('notifications/progress').params, message.params);
    });

    it('accepts audio content in tool results, prompt messages and sampling', () => {
      const audio = { type: 'audio', data: 'base64-encoded-audio-data', mimeType: 'audio/wav' };
      accepts(revision.schemas.ContentBlock, audio);
      accepts(revision.schemas.CallToolResult, { content: [audio] });
      accepts(revision.schemas.PromptMessage, { role: 'user', content: audio });
      accepts(revision.schemas.SamplingMessage, { role: 'user', content: audio });
      accepts(requestSpec('sampling/createMessage').result, { role: 'assistant', content: audio, model: 'm' });
      accepts(requestSpec('prompts/get').result, { messages: [{ role: 'assistant', content: audio }] });
    });

    it('accepts a tool with annotations', () => {
      const tool = {
        name: 'delete_file',
        inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
        annotations: { title: 'Delete file', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      };
      accepts(revision.schemas.Tool, tool);
      accepts(requestSpec('tools/list').result, { tools: [tool] });
    });
  });

  describe('rejections', () => {
    it('rejects audio without a mimeType and annotations of the wrong type', () => {
      rejects(revision.schemas.ContentBlock, { type: 'audio', data: 'x' });
      rejects(ToolAnnotations, { readOnlyHint: 'yes' });
      rejects(revision.schemas.Tool, { name: 't', inputSchema: { type: 'object' }, annotations: { destructiveHint: 1 } });
    });

    it('rejects a progress message that is not a string and a completions capability that is not an object', () => {
      rejects(notificationSpec('notifications/progress').params, { progressToken: 1, progress: 1, message: 5 });
      rejects(revision.schemas.ServerCapabilities, { completions: true });
    });
  });

  describe('#schemas.JsonRpcBatch', () => {
    it('accepts a batch of requests and notifications', () => {
      accepts(JsonRpcBatch, [
        { jsonrpc: '2.0', id: 1, method: 'tools/list' },
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]);
    });

    it('accepts a batch of responses', () => {
      accepts(JsonRpcBatch, [
        { jsonrpc: '2.0', id: 1, result: { tools: [] } },
        { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found' } },
      ]);
    });

    it('rejects an empty batch, a mixed batch and an initialize inside a batch', () => {
      rejects(JsonRpcBatch, []);
      rejects(JsonRpcBatch, [
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 2, result: {} },
      ]);
      rejects(JsonRpcBatch, [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
        },
      ]);
    });

    it('rejects a batch holding an invalid request', () => {
      rejects(JsonRpcBatch, [{ jsonrpc: '2.0', id: 1, method: 'resources/read', params: {} }]);
    });
  });
});
