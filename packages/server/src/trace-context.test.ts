import type { JsonObject, TraceContext } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from './mcp-server.js';
import { initializedClient } from './test-harness.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OWN = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('McpServer trace context', () => {
  it("gives a tool the client's validated trace context as extra.traceContext and carries it into createMessage", async () => {
    const server = new McpServer({ name: 'traced', version: '1.0.0' });
    const seen: Array<TraceContext | undefined> = [];
    server.registerTool('traced', {}, async (_args, extra) => {
      seen.push(extra.traceContext);
      await extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 1 });
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    const test = await initializedClient(server, {
      capabilities: { sampling: {} },
      handlers: { 'sampling/createMessage': () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } }) },
    });
    await test.client.request('tools/call', { name: 'traced', arguments: {} }, { traceContext: { traceparent: PARENT, tracestate: 'Invalid!', baggage: 'k=v' } });
    expect(seen).toEqual([{ traceparent: PARENT, baggage: 'k=v' }]);
    const [sampling] = test.requests('sampling/createMessage');
    expect((sampling?.params as JsonObject)._meta).toEqual({ traceparent: PARENT, baggage: 'k=v' });
  });

  it("uses the server's traceContext provider for its own requests when it is set", async () => {
    const server = new McpServer({ name: 'traced', version: '1.0.0' }, { traceContext: () => ({ traceparent: OWN }) });
    server.registerTool('traced', {}, async (_args, extra) => {
      await extra.listRoots();
      return { content: [] };
    });
    const test = await initializedClient(server, { capabilities: { roots: {} }, handlers: { 'roots/list': () => ({ roots: [] }) } });
    await test.client.request('tools/call', { name: 'traced', arguments: {} }, { traceContext: { traceparent: PARENT } });
    const [roots] = test.requests('roots/list');
    expect((roots?.params as JsonObject)._meta).toEqual({ traceparent: OWN });
  });
});
