/**
 * How a POST with requests is answered (`enableJsonResponse`): MCP 2025-11-25, Transports
 * §Streamable HTTP ("Sending Messages to the Server") lets the server answer with one JSON body
 * or an SSE stream. By default a JSON body, turned into an SSE stream when a related message
 * comes before the answer; SSE from the start when an event store makes the streams resumable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { InMemoryEventStore } from './event-store.js';
import { createStreamableHttpServer } from './streamable-http-server.js';
import type { StreamableHttpServer, StreamableHttpServerOptions } from './server-options.js';
import { answerMessages, createServerSession, initializeBody, postInit, type ToolHandler } from './test-support.js';

const servers: StreamableHttpServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const tools: Record<string, ToolHandler> = {
  progress: async (_args, context) => {
    await context.sendProgress(1, 2);
    return { content: [{ type: 'text', text: 'done' }] };
  },
};

/** A server with the `progress` tool and one open 2025-11-25 session; `post` sends on that session. */
async function openSession(options: Partial<StreamableHttpServerOptions>) {
  const server = createStreamableHttpServer({ connect: (transport) => createServerSession(transport, tools).connect(transport), keepAliveIntervalMs: 0, ...options });
  servers.push(server);
  const call = (init: RequestInit) => server.handleFetch(new Request('http://localhost:3000/mcp', init));
  const opened = await call(postInit(initializeBody()));
  const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
  expect((await call(postInit({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status).toBe(202);
  return { post: (body: unknown) => call(postInit(body, headers)) };
}

const progressCall = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'progress', arguments: {}, _meta: { progressToken: 't' } } };
const progressAnswer = [
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1, total: 2 } },
  { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'done' }] } },
];

describe('the answer to a POST with requests', () => {
  it('is one JSON body by default, and an SSE stream once a related notification comes first', async () => {
    const { post } = await openSession({});
    const ping = await post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(ping.headers.get('content-type')).toBe('application/json');
    expect(await ping.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const progress = await post(progressCall);
    expect(progress.status).toBe(200);
    expect(progress.headers.get('content-type')).toBe('text/event-stream');
    expect(await answerMessages(progress)).toEqual(progressAnswer);
  });

  it('is an SSE stream by default when an event store makes the streams resumable', async () => {
    const { post } = await openSession({ eventStore: new InMemoryEventStore() });
    const ping = await post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(ping.headers.get('content-type')).toBe('text/event-stream');
    expect(await answerMessages(ping)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('is always an SSE stream with enableJsonResponse: false', async () => {
    const { post } = await openSession({ enableJsonResponse: false });
    const ping = await post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(ping.headers.get('content-type')).toBe('text/event-stream');
    expect(await answerMessages(ping)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('follows the same option for a 2026-07-28 request: JSON by default, SSE with enableJsonResponse: false', async () => {
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    for (const [options, type] of [[{}, 'application/json'], [{ enableJsonResponse: false }, 'text/event-stream']] as const) {
      const server = createStreamableHttpServer({ connect: (transport) => createServerSession(transport, tools).connect(transport), keepAliveIntervalMs: 0, ...options });
      servers.push(server);
      const answer = await server.handleFetch(new Request('http://localhost:3000/mcp', postInit({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } }, headers)));
      expect(answer.headers.get('content-type')).toBe(type);
      expect(await answerMessages(answer)).toMatchObject([{ jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'progress' }] } }]);
    }
  });

  it('is always one JSON body with enableJsonResponse: true, the related notification going to the GET stream', async () => {
    const { post } = await openSession({ enableJsonResponse: true });
    const progress = await post(progressCall);
    expect(progress.headers.get('content-type')).toBe('application/json');
    expect(await progress.json()).toEqual(progressAnswer[1]);
  });
});
