/**
 * Stateless Streamable HTTP end to end, on real 127.0.0.1 sockets, with `@statemcp/server`'s
 * `McpServer` behind `createStreamableHttpServer({ stateless: true })`: every POST gets its
 * own transport (and server session, started in Operating through `sessionAssumed`), no
 * session id is ever issued, GET and DELETE answer 405, and a server-to-client request fails
 * at once with `NoReturnChannelError` instead of hanging (lesson 20).
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE_TOOLS, SERVER_NAME, Servers, firstText, recordingFetch, type AttemptReport, type Exchange } from '../../test/mcp-fixture.js';
import { StreamableHttpClientTransport } from '../client/streamable-http.js';
import { postInit } from './test-support.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

/** What the `try_*` tools report for a request that has no return channel. */
const NO_RETURN_CHANNEL: AttemptReport = { outcome: 'NoReturnChannelError', code: 'NO_RETURN_CHANNEL', settledBeforeNextTurn: true };

function report(result: { content?: unknown }): AttemptReport {
  return JSON.parse(firstText(result)) as AttemptReport;
}

/** Every exchange went out without a session id, and none was ever issued. */
function expectNoSessions(exchanges: readonly Exchange[]): void {
  for (const exchange of exchanges) expect(exchange.headers['mcp-session-id']).toBeUndefined();
}

interface ToolResult {
  content?: unknown;
  isError?: boolean | undefined;
}

/** The calls every client makes, through a common shape. */
interface Calls {
  listTools(): Promise<{ tools: { name: string }[] }>;
  callTool(name: string, args?: Record<string, unknown>): Promise<ToolResult>;
}

async function exercise(calls: Calls, http: { sessions: { size: number } }, asked: () => number): Promise<void> {
  expect((await calls.listTools()).tools.map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
  expect(firstText(await calls.callTool('echo', { text: 'stateless' }))).toBe('stateless');
  // The server cannot reach the client: sampling and roots/list fail at once, before the
  // next turn of the server's event loop — no timer, no round trip.
  expect(report(await calls.callTool('try_sampling'))).toEqual(NO_RETURN_CHANNEL);
  expect(report(await calls.callTool('try_roots'))).toEqual(NO_RETURN_CHANNEL);
  // A tool that does not catch it fails the call as a tool error, promptly.
  const asked_ = await calls.callTool('ask_model');
  expect(asked_.isError).toBe(true);
  expect(firstText(asked_)).toMatch(/no channel for server-to-client requests/);
  // Nothing ever reached the client's handlers, and no session was kept.
  expect(asked()).toBe(0);
  expect(http.sessions.size).toBe(0);
}

describe('stateless Streamable HTTP with McpServer', () => {
  it('serves the official 1.x client: initialize, list, call; server-to-client requests fail at once', async () => {
    const { url, http } = await servers.start({ stateless: true });
    const recorder = recordingFetch();
    let asked = 0;
    const client = new ClientV1({ name: 'official-v1', version: '1.0.0' }, { capabilities: { sampling: {}, roots: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, () => {
      asked++;
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'unreachable' } };
    });
    client.setRequestHandler(ListRootsRequestSchema, () => {
      asked++;
      return { roots: [] };
    });
    const transport = new TransportV1(new URL(url), { fetch: recorder.fetch });
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe(SERVER_NAME);
    expect(transport.sessionId).toBeUndefined();
    await exercise(
      { listTools: () => client.listTools(), callTool: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as ToolResult },
      http,
      () => asked,
    );
    await client.close();
    expectNoSessions(recorder.exchanges);
    // Its optional standalone GET was refused with 405.
    expect(recorder.exchanges.filter((e) => e.method === 'GET').map((e) => e.status)).toEqual([405]);
  });

  it('serves our Client: initialize, list, call; server-to-client requests fail at once; close sends no DELETE', async () => {
    const { url, http } = await servers.start({ stateless: true });
    const recorder = recordingFetch();
    let asked = 0;
    const client = new Client({ name: 'statemcp-client', version: '0.1.0' }, { era: 'legacy' });
    client.onSampling(() => {
      asked++;
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'unreachable' } };
    });
    client.setRoots([{ uri: 'file:///tmp', name: 'tmp' }]);
    const transport = new StreamableHttpClientTransport(url, { fetch: recorder.fetch });
    await client.connect(transport);
    expect(client.serverInfo?.name).toBe(SERVER_NAME);
    expect(transport.sessionId).toBeUndefined();
    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('unsupported');
    await exercise(
      { listTools: () => client.listTools(), callTool: (name, args = {}) => client.callTool({ name, arguments: args }) },
      http,
      () => asked,
    );
    await client.close();
    expect(client.state.kind).toBe('terminated');
    expectNoSessions(recorder.exchanges);
    expect(recorder.exchanges.filter((e) => e.method !== 'POST').map((e) => [e.method, e.status])).toEqual([['GET', 405]]);
    // Every request after the handshake declared the negotiated version, so each fresh server
    // session served it at that revision.
    for (const exchange of recorder.exchanges.filter((e) => e.rpc !== 'initialize')) {
      expect(exchange.headers['mcp-protocol-version']).toBe(client.protocolVersion);
    }
  });

  it('serves the official 2.x client the same way', async () => {
    const { url, http } = await servers.start({ stateless: true });
    let asked = 0;
    const client = new ClientV2({ name: 'official-v2', version: '2.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler('sampling/createMessage', () => {
      asked++;
      return { model: 'm', role: 'assistant', content: { type: 'text', text: 'unreachable' } };
    });
    const transport = new TransportV2(new URL(url));
    await client.connect(transport);
    expect(transport.sessionId).toBeUndefined();
    await exercise(
      { listTools: () => client.listTools(), callTool: (name, args = {}) => client.callTool({ name, arguments: args }) },
      http,
      () => asked,
    );
    await client.close();
  });

  it('answers GET and DELETE with 405 (Allow: POST), whatever the headers', async () => {
    const { url } = await servers.start({ stateless: true });
    const init = await fetch(url, postInit({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    expect(init.status).toBe(200);
    expect(init.headers.get('mcp-session-id')).toBeNull();
    await init.text();
    const attempts = [
      { method: 'GET', headers: { accept: 'text/event-stream' } },
      { method: 'GET', headers: { accept: 'text/event-stream', 'mcp-session-id': 'anything', 'mcp-protocol-version': '2025-11-25' } },
      { method: 'DELETE', headers: {} },
      { method: 'DELETE', headers: { 'mcp-session-id': 'anything', 'mcp-protocol-version': '2025-11-25' } },
    ];
    for (const attempt of attempts) {
      const response = await fetch(url, attempt);
      expect(response.status, `${attempt.method} ${JSON.stringify(attempt.headers)}`).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
      await response.body?.cancel();
    }
  });
});
