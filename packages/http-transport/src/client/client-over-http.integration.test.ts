/**
 * `@statemcp/client`'s `Client` over `StreamableHttpClientTransport` against our Streamable
 * HTTP server with `@statemcp/server`'s `McpServer`, on real 127.0.0.1 sockets: the full
 * lifecycle at each legacy revision, and a server restarted under a live client (lesson 13).
 */
import { Client } from '@statemcp/client';
import { LEGACY_PROTOCOL_VERSIONS, SessionChangedError, TransportError, type InspectEvent } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { FIXTURE_TOOLS, SERVER_NAME, Servers, firstText, recordingFetch } from '../../test/mcp-fixture.js';
import { StreamableHttpClientTransport, type SessionRecoveredInfo } from './streamable-http.js';
import { createStreamableHttpServer, type ListeningServer } from '../server/index.js';

const servers = new Servers();
afterEach(() => servers.closeAll());

/** Revisions that define the `MCP-Protocol-Version` header (2025-06-18 and later). */
const HEADER_REVISIONS = new Set(LEGACY_PROTOCOL_VERSIONS.filter((version) => version >= '2025-06-18'));

function newClient(options: ConstructorParameters<typeof Client>[1] = {}): Client {
  const client = new Client({ name: 'statemcp-client', version: '0.1.0' }, { defaultTimeoutMs: 10_000, ...options });
  client.onSampling(() => ({ role: 'assistant', model: 'stub-model', content: { type: 'text', text: 'hi over http' } }));
  return client;
}

describe('Client over Streamable HTTP with McpServer: full lifecycle per legacy revision', () => {
  const cases = LEGACY_PROTOCOL_VERSIONS.flatMap((version) => [
    { version, pinnedBy: 'protocolVersion' as const },
    { version, pinnedBy: 'supportedVersions' as const },
  ]);

  it.each(cases)('handshake at $version (pinned by $pinnedBy), calls, sampling, close with DELETE', async ({ version, pinnedBy }) => {
    const { url, http } = await servers.start();
    const recorder = recordingFetch();
    const transport = new StreamableHttpClientTransport(url, { fetch: recorder.fetch });
    const client = newClient(pinnedBy === 'protocolVersion' ? { protocolVersion: version } : { supportedVersions: [version] });

    await client.connect(transport);
    expect(client.state.kind).toBe('operating');
    expect(client.protocolVersion).toBe(version);
    expect(client.serverInfo?.name).toBe(SERVER_NAME);
    expect(transport.protocolVersion).toBe(version);
    const sessionId = transport.sessionId;
    expect(sessionId).toBeDefined();
    expect(http.sessions.get(sessionId ?? '')?.protocolVersion).toBe(version);

    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(FIXTURE_TOOLS);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: version } }))).toBe(version);
    const progress: number[] = [];
    const counted = await client.callTool({ name: 'count', arguments: {} }, { onProgress: (update) => progress.push(update.progress) });
    expect(firstText(counted)).toBe('counted');
    expect(progress).toEqual([1, 2, 3]);
    expect(firstText(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe('model said: hi over http');

    await client.close();
    expect(client.state.kind).toBe('terminated');
    expect(http.sessions.size).toBe(0);

    const [initialize, ...later] = recorder.exchanges;
    expect(initialize?.rpc).toBe('initialize');
    expect((initialize?.body as { params: { protocolVersion: string } }).params.protocolVersion).toBe(version);
    expect(initialize?.headers['mcp-protocol-version']).toBeUndefined();
    expect(later.map((e) => e.method)).toContain('DELETE');
    for (const exchange of later) {
      expect(exchange.headers['mcp-session-id']).toBe(sessionId);
      if (HEADER_REVISIONS.has(version)) expect(exchange.headers['mcp-protocol-version']).toBe(version);
      else expect([undefined, version]).toContain(exchange.headers['mcp-protocol-version']);
      expect(exchange.status).toBeLessThan(300);
    }
    expect(later.filter((e) => e.method === 'DELETE').map((e) => e.status)).toEqual([200]);
  });
});

// Session recovery is the legacy era's: these clients pin it (a modern client holds no session to lose).
describe('Client over Streamable HTTP with McpServer: server restarted under a live client', () => {
  it('the same Client object: next call meets 404, re-initializes, retries and succeeds', async () => {
    const a = await servers.start();
    const port = a.listening.port;
    const recorder = recordingFetch();
    const recovered: SessionRecoveredInfo[] = [];
    const transport = new StreamableHttpClientTransport(a.url, {
      fetch: recorder.fetch,
      onSessionRecovered: (info) => recovered.push(info),
      // The standalone GET stream's reconnection stays far away, so the call is what meets B.
      reconnect: { initialDelayMs: 30_000, maxDelayMs: 30_000 },
    });
    const client = newClient({ era: 'legacy' });
    await client.connect(transport);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');
    const first = transport.sessionId;
    expect(a.http.sessions.ids()).toEqual([first]);

    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('open');

    await servers.stop(a);
    // A real restart takes a while, so the client has seen A's sockets close before B is up.
    // Wait for that by event order: the standalone GET stream noticed, hence so did the
    // connection pool (the server closed every socket in one go).
    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('reconnecting');
    const b = await servers.start({}, { port });
    expect(b.http.sessions.size).toBe(0);
    const mark = recorder.exchanges.length;

    const after = await client.callTool({ name: 'echo', arguments: { text: 'after' } });
    expect(firstText(after)).toBe('after');
    expect(client.state.kind).toBe('operating');
    expect(transport.sessionId).toBeDefined();
    expect(transport.sessionId).not.toBe(first);
    expect(b.http.sessions.ids()).toEqual([transport.sessionId]);
    expect(b.http.sessions.get(transport.sessionId ?? '')?.protocolVersion).toBe(client.protocolVersion);
    expect(transport.sessionRecoveries).toBe(1);
    expect(recovered).toEqual([{ previousSessionId: first, sessionId: transport.sessionId }]);

    const posts = recorder.exchanges.slice(mark).filter((e) => e.method === 'POST');
    expect(posts.map((e) => [e.rpc, e.status])).toEqual([
      ['tools/call', 404],
      ['initialize', 200],
      ['notifications/initialized', 202],
      ['tools/call', 200],
    ]);
    expect(posts[0]?.headers['mcp-session-id']).toBe(first);
    expect(posts[1]?.headers['mcp-session-id']).toBeUndefined();
    expect(posts[2]?.headers['mcp-session-id']).toBe(transport.sessionId);
    expect(posts[3]?.headers['mcp-session-id']).toBe(transport.sessionId);
    // The retried call is the very same JSON-RPC request.
    expect(posts[3]?.body).toEqual(posts[0]?.body);

    // Further calls, sampling included, run on the new session; close DELETEs it.
    expect(firstText(await client.callTool({ name: 'ask_model', arguments: {} }))).toBe('model said: hi over http');
    await client.close();
    expect(b.http.sessions.size).toBe(0);
  });

  it('a call racing the server going away fails with a typed error, and the client is not stuck', async () => {
    const a = await servers.start();
    const port = a.listening.port;
    const transport = new StreamableHttpClientTransport(a.url);
    const client = newClient({ era: 'legacy' });
    await client.connect(transport);
    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');

    // B is up before the client's event loop has seen A's sockets close: the call may go out
    // on a pooled keep-alive connection that A already closed. A POST is not retried blindly
    // (it may have reached the server), so that call may fail — but only with a typed error,
    // and it must not wedge the client.
    await servers.stop(a);
    const b = await servers.start({}, { port });
    const outcome = await client.callTool({ name: 'echo', arguments: { text: 'racing' } }).then(
      (result) => firstText(result),
      (error: unknown) => (error instanceof TransportError ? 'TransportError' : error),
    );
    expect(['racing', 'TransportError']).toContain(outcome);
    // One turn of the event loop later the pool has seen every closed socket.
    await new Promise<void>((resolve) => setImmediate(resolve));

    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect(client.state.kind).toBe('operating');
    expect(transport.sessionRecoveries).toBe(1);
    expect(b.http.sessions.ids()).toEqual([transport.sessionId]);
    await client.close();
  });

  it('the standalone GET stream notices the restart first: recovery in the background, the next call just works', async () => {
    const a = await servers.start();
    const port = a.listening.port;
    const transport = new StreamableHttpClientTransport(a.url, { reconnect: { initialDelayMs: 10, maxDelayMs: 50, maxRetries: 20 } });
    const client = newClient({ era: 'legacy' });
    await client.connect(transport);
    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('open');
    const first = transport.sessionId;

    await servers.stop(a);
    const b = await servers.start({}, { port });
    await expect.poll(() => transport.sessionRecoveries, { timeout: 5000 }).toBe(1);
    await expect.poll(() => transport.standaloneStreamState?.kind, { timeout: 5000 }).toBe('open');
    expect(transport.sessionId).not.toBe(first);
    expect(b.http.sessions.ids()).toEqual([transport.sessionId]);

    expect(firstText(await client.callTool({ name: 'echo', arguments: { text: 'seamless' } }))).toBe('seamless');
    expect(transport.sessionRecoveries).toBe(1);
    await client.close();
    expect(b.http.sessions.size).toBe(0);
  });

  it('a restarted server that negotiates another version ends the session with SessionChangedError, never a mixed state', async () => {
    const a = await servers.start();
    const port = a.listening.port;
    const events: InspectEvent[] = [];
    const transport = new StreamableHttpClientTransport(a.url, { reconnect: { initialDelayMs: 30_000, maxDelayMs: 30_000 } });
    const client = newClient({ era: 'legacy', inspect: (event) => events.push(event) });
    await client.connect(transport);
    expect(client.protocolVersion).toBe('2025-11-25');
    await servers.stop(a);
    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('reconnecting');

    // B speaks only 2025-06-18: it answers the repeated initialize with that version.
    const older = new McpServer({ name: 'older', version: '1.0.0' }, { supportedVersions: ['2025-06-18'] });
    older.registerTool('echo', { description: 'Echoes text' }, () => ({ content: [{ type: 'text', text: 'from B' }] }));
    const b: ListeningServer = await createStreamableHttpServer({ connect: (t) => older.connect(t) }).listen({ host: '127.0.0.1', port });
    try {
      const outcome = await client.callTool({ name: 'echo', arguments: { text: 'after' } }).then(
        () => 'answered',
        (error: unknown) => error,
      );
      // The call never reached a session that could answer it: it fails with why the session ended.
      expect(outcome).toBeInstanceOf(SessionChangedError);
      await expect.poll(() => client.state.kind).toBe('terminated');
      expect(client.state).toMatchObject({ kind: 'terminated', reason: 'sessionChanged' });
      const closeError = client.state.kind === 'terminated' ? client.state.error : undefined;
      expect(closeError).toBeInstanceOf(SessionChangedError);
      expect(closeError?.message).toContain('2025-06-18 instead of 2025-11-25');
      // The header never switched behind the session's back.
      expect(transport.protocolVersion).toBe('2025-11-25');
      const transitions = events.flatMap((e) => (e.type === 'session.transition' ? [`${e.from}>${e.to}`] : []));
      expect(transitions).toContain('operating>initializing');
      expect(transitions).toContain('initializing>shuttingDown');
    } finally {
      await b.close();
    }
  });
});
