/**
 * A server that forgets the session in the middle of traffic (MCP 2025-11-25 Transports
 * §Session Management), on real 127.0.0.1 sockets: `@statemcp/client` over
 * `StreamableHttpClientTransport` against our Streamable HTTP server. The transport only
 * reports the 404 and bounces what met it; the session's machine runs the handshake again
 * while the ledger holds everything, and "404 after replacement" fails the connection.
 */
import { Client } from '@statemcp/client';
import { SessionExpiredError, type ConnectionState } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';
import { firstText, recordingFetch } from '../../test/mcp-fixture.js';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServer } from '../server/index.js';
import { StreamableHttpClientTransport } from './streamable-http.js';

let listening: ListeningServer | undefined;
afterEach(async () => {
  await listening?.close();
  listening = undefined;
});

/** A server whose `work` tool records each call it runs, and which counts the roots notifications it hears. */
async function startServer(): Promise<{ http: StreamableHttpServer; url: string; ran: number[]; rootsChanged: () => number }> {
  const ran: number[] = [];
  let roots = 0;
  const mcp = new McpServer({ name: 'forgetful', version: '1.0.0' });
  mcp.registerTool('work', { description: 'Records the call and echoes n' }, (args) => {
    const n = Number((args as { n?: unknown }).n);
    ran.push(n);
    return { content: [{ type: 'text', text: String(n) }] };
  });
  mcp.server.setNotificationHandler('notifications/roots/list_changed', () => {
    roots++;
  });
  const http = createStreamableHttpServer({ connect: (transport) => mcp.connect(transport) });
  listening = await http.listen({ host: '127.0.0.1' });
  return { http, url: listening.url.href, ran, rootsChanged: () => roots };
}

function newClient(): Client {
  // Session recovery is the legacy era's: pinned.
  return new Client({ name: 'statemcp-client', version: '0.1.0' }, { era: 'legacy', defaultTimeoutMs: 10_000 });
}

const work = (client: Client, n: number) => client.callTool({ name: 'work', arguments: { n } }).then(firstText);

describe('Client over Streamable HTTP: the server forgets the session mid-traffic', () => {
  it('answers every request exactly once after the handshake is run again: in flight, queued, and a notification', async () => {
    const { http, url, ran, rootsChanged } = await startServer();
    const recorder = recordingFetch();
    // The standalone stream's reconnection stays far away: the calls are what meet the 404.
    const transport = new StreamableHttpClientTransport(url, { fetch: recorder.fetch, reconnect: { initialDelayMs: 30_000, maxDelayMs: 30_000 } });
    const client = newClient();
    await client.setRoots([{ uri: 'file:///one', name: 'one' }]);
    await client.connect(transport);
    expect(await work(client, 0)).toBe('0');
    const first = transport.sessionId ?? '';
    const phases: string[] = [];
    const queued: Promise<string>[] = [];
    client.session.onTransition((to: ConnectionState) => {
      phases.push(to.kind === 'initializing' ? to.phase : to.kind);
      // Made while the handshake runs again: held in the ledger, never given to the transport.
      if (to.kind === 'initializing' && to.phase === 'resuming') queueMicrotask(() => queued.push(work(client, 3), work(client, 4)));
    });

    expect(http.sessions.terminate(first)).toBe(true);
    // In flight together: each POST carries the forgotten id and meets the 404.
    const inFlight = [work(client, 1), work(client, 2)];
    const notified = client.setRoots([{ uri: 'file:///two', name: 'two' }]);
    expect(await Promise.all(inFlight)).toEqual(['1', '2']);
    await notified;
    expect(await Promise.all(queued)).toEqual(['3', '4']);

    expect(client.state.kind).toBe('operating');
    expect(phases).toEqual(['resuming', 'initialized', 'operating']);
    expect([...ran].sort()).toEqual([0, 1, 2, 3, 4]);
    expect(rootsChanged()).toBe(1);
    expect(transport.sessionRecoveries).toBe(1);
    const second = transport.sessionId ?? '';
    expect(second).not.toBe(first);
    expect(http.sessions.ids()).toEqual([second]);
    // Each call went out once on the new session; on the old one only the bounced POSTs met the 404.
    const calls = recorder.exchanges.filter((e) => e.rpc === 'tools/call');
    const onNew = calls.filter((e) => e.headers['mcp-session-id'] === second).map((e) => (e.body as { params: { arguments: { n: number } } }).params.arguments.n);
    expect(onNew.sort()).toEqual([1, 2, 3, 4]);
    expect(calls.filter((e) => e.status === 404).every((e) => e.headers['mcp-session-id'] === first)).toBe(true);
    const initialized = recorder.exchanges.findLastIndex((e) => e.rpc === 'notifications/initialized');
    expect(recorder.exchanges.slice(0, initialized).some((e) => e.rpc === 'tools/call' && e.headers['mcp-session-id'] === second)).toBe(false);
    await client.close();
  });

  it('fails the connection with SessionExpiredError when the replacement is forgotten before it answered anything', async () => {
    const { http, url, ran } = await startServer();
    const recorder = recordingFetch();
    let forgetReplacement = false;
    // The server forgets the new session as soon as it issued it (a cluster that cannot keep sessions).
    const forgetful: typeof fetch = async (input, init) => {
      const response = await recorder.fetch(input, init);
      const issued = response.headers.get('mcp-session-id');
      if (forgetReplacement && issued !== null) http.sessions.terminate(issued);
      return response;
    };
    const transport = new StreamableHttpClientTransport(url, { fetch: forgetful, reconnect: { initialDelayMs: 30_000, maxDelayMs: 30_000 } });
    const client = newClient();
    await client.connect(transport);
    expect(await work(client, 0)).toBe('0');

    forgetReplacement = true;
    http.sessions.terminate(transport.sessionId ?? '');
    const outcome = await work(client, 1).then(
      () => 'answered',
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(SessionExpiredError);
    await client.session.closed;
    expect(client.state).toMatchObject({ kind: 'terminated', reason: 'sessionExpired' });
    const error = client.state.kind === 'terminated' ? client.state.error : undefined;
    expect(error).toBeInstanceOf(SessionExpiredError);
    expect(error).toMatchObject({ code: 'SESSION_EXPIRED', category: 'interrupted' });
    expect(ran).toEqual([0]);
    // One replacement was tried: initialize, then its notifications/initialized met the 404.
    expect(recorder.exchanges.filter((e) => e.rpc === 'initialize')).toHaveLength(2);
    expect(recorder.exchanges.filter((e) => e.status === 404).map((e) => e.rpc)).toEqual(['tools/call', 'notifications/initialized']);
  });
});
