import { Session, type TransportCloseInfo, type TransportSink } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';

import { SseClientTransport } from './sse-client.js';
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from './streamable-http.js';
import { startMiniServer, type MiniServer } from '../../test/mini-streamable-server.js';
import { InMemoryEventStore, createStreamableHttpServer } from '../server/index.js';

/** Just enough of a session to drive a transport: ids, pending answers, notifications. */
class Driver implements TransportSink {
  readonly notifications: unknown[] = [];
  readonly errors: Error[] = [];
  readonly closes: TransportCloseInfo[] = [];
  readonly #pending = new Map<unknown, (value: Record<string, unknown>) => void>();
  #nextId = 1;

  constructor(readonly transport: StreamableHttpClientTransport) {}

  onMessage(value: unknown): void {
    const message = value as Record<string, unknown>;
    if ('id' in message && !('method' in message)) this.#pending.get(message.id)?.(message);
    else this.notifications.push(message);
  }
  onError(error: Error): void {
    this.errors.push(error);
  }
  onClose(info: TransportCloseInfo): void {
    this.closes.push(info);
  }

  async request(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    const answered = new Promise<Record<string, unknown>>((resolve) => this.#pending.set(id, resolve));
    await this.transport.send({ jsonrpc: '2.0', id, method, params });
    return answered;
  }

  async connect(): Promise<void> {
    await this.transport.start(this);
    const init = await this.request('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'it', version: '1' },
    });
    this.transport.setProtocolVersion((init.result as { protocolVersion: string }).protocolVersion);
    await this.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
}

let server: MiniServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A real client session over the transport (its machine runs the handshake, and runs it again when the server forgets the session). */
async function sessionOver(url: string, options: StreamableHttpClientTransportOptions = {}): Promise<{ session: Session; transport: StreamableHttpClientTransport }> {
  const transport = new StreamableHttpClientTransport(url, options);
  const session = new Session({ role: 'client', capabilities: () => ({}), strictCapabilities: false });
  await session.connect(transport);
  await session.initialize({ capabilities: {}, clientInfo: { name: 'it', version: '1' } });
  return { session, transport };
}

async function connect(url: string, options: StreamableHttpClientTransportOptions = {}): Promise<Driver> {
  const driver = new Driver(new StreamableHttpClientTransport(url, options));
  await driver.connect();
  return driver;
}

describe('StreamableHttpClientTransport against a real HTTP server', () => {
  it('resumes a POST stream cut after its priming event with GET + Last-Event-ID after the server retry', async () => {
    server = await startMiniServer({ noStandalone: true });
    const driver = await connect(server.url);
    const answer = await driver.request('tools/call', { name: 'test_reconnection', arguments: {} });
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'reconnected' }] });
    const resume = server.log.find((entry) => entry.method === 'GET' && entry.headers['last-event-id'] !== undefined);
    expect(resume?.headers['last-event-id']).toMatch(/^s\d+:0$/);
    const cut = server.cutAt.get(answer.id);
    expect(cut).toBeDefined();
    const waited = (resume?.at ?? 0) - (cut ?? 0);
    expect(waited).toBeGreaterThanOrEqual(450);
    expect(waited).toBeLessThan(700);
    expect(driver.errors).toEqual([]);
    await driver.transport.close();
  });

  it('opens the standalone GET stream and receives server notifications on it', async () => {
    server = await startMiniServer();
    const driver = await connect(server.url);
    await expect.poll(() => server?.standalone.size).toBe(1);
    server.notifyStandalone({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await expect.poll(() => driver.notifications).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
    expect(driver.transport.standaloneStreamState?.kind).toBe('open');
    await driver.transport.close();
    expect(server.deletes).toEqual([driver.transport.sessionId]);
    expect(driver.closes).toEqual([{ initiator: 'local' }]);
  });

  it('survives a server restart: 404 → the session runs the handshake again → the same call succeeds', async () => {
    server = await startMiniServer({ noStandalone: true });
    const port = server.port;
    const recovered: unknown[] = [];
    const { session, transport } = await sessionOver(server.url, { onSessionRecovered: (info) => recovered.push(info) });
    const before = transport.sessionId;
    await server.close();
    server = await startMiniServer({ port, noStandalone: true });
    const answer = await session.request('tools/call', { name: 'echo', arguments: {} });
    expect(answer).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    expect(transport.sessionId).not.toBe(before);
    expect(server.sessions.has(transport.sessionId ?? '')).toBe(true);
    expect(recovered).toEqual([{ previousSessionId: before, sessionId: transport.sessionId }]);
    const methods = server.log.filter((e) => e.method === 'POST').map((e) => (e.body as { method: string }).method);
    expect(methods).toEqual(['tools/call', 'initialize', 'notifications/initialized', 'tools/call']);
    await session.close();
  });

  it('replaces the session when the standalone stream meets a 404', async () => {
    server = await startMiniServer();
    const { session, transport } = await sessionOver(server.url, { reconnect: { initialDelayMs: 10, maxRetries: 3 } });
    await expect.poll(() => server?.standalone.size).toBe(1);
    const before = transport.sessionId;
    server.forgetSessions();
    for (const response of server.standalone) response.end();
    await expect.poll(() => transport.sessionId !== before && server?.standalone.size === 1, { timeout: 3000 }).toBe(true);
    expect(transport.sessionRecoveries).toBe(1);
    expect(session.state.kind).toBe('operating');
    await session.close();
  });

  it('falls back to a legacy HTTP+SSE server', async () => {
    server = await startMiniServer({ legacy: true });
    const driver = await connect(server.url);
    expect(driver.transport.wire).toBe('legacy');
    const answer = await driver.request('tools/call', { name: 'x' });
    expect(answer.result).toEqual({ legacy: true });
    await driver.transport.close();
    expect(driver.closes).toHaveLength(1);
  });
});

describe('StreamableHttpClientTransport against statemcp\'s own HTTP server', () => {
  it('runs the lifecycle with Session runners on both ends: SSE answers, server notifications, DELETE on close', async () => {
    const serverSessions: Session[] = [];
    const mcp = createStreamableHttpServer({
      path: '/mcp',
      eventStore: new InMemoryEventStore(),
      connect: async (transport) => {
        const session = new Session({
          role: 'server',
          capabilities: () => ({ tools: { listChanged: true } }),
          onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'statemcp-http', version: '1' } }),
        });
        session.setRequestHandler('tools/call', async (params) => ({
          content: [{ type: 'text', text: `hi ${String((params as { name?: string }).name)}` }],
        }));
        serverSessions.push(session);
        await session.connect(transport);
      },
    });
    const listening = await mcp.listen({ port: 0 });
    try {
      const transport = new StreamableHttpClientTransport(listening.url);
      const client = new Session({ role: 'client', capabilities: () => ({}) });
      const notified: unknown[] = [];
      client.setNotificationHandler('notifications/tools/list_changed', (params) => {
        notified.push(params);
      });
      await client.connect(transport);
      await client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      expect(transport.sessionId).toBeDefined();
      expect(transport.protocolVersion).toBe('2025-11-25');
      const results = await Promise.all(Array.from({ length: 50 }, (_, n) => client.request('tools/call', { name: `t${n}` })));
      expect(results[49]).toEqual({ content: [{ type: 'text', text: 'hi t49' }] });
      await expect.poll(() => transport.standaloneStreamState?.kind).toBe('open');
      await serverSessions[0]?.notify('notifications/tools/list_changed');
      await expect.poll(() => notified.length).toBe(1);
      await client.close();
      expect(client.state.kind).toBe('terminated');
      const serverClosed = await serverSessions[0]?.closed;
      expect(serverClosed).toBeDefined();
      expect(mcp.sessions.size).toBe(0);
    } finally {
      await listening.close();
    }
  });

  it('speaks legacy HTTP+SSE with SseClientTransport to the server\'s /sse endpoint', async () => {
    const mcp = createStreamableHttpServer({
      legacySse: true,
      connect: async (transport) => {
        const session = new Session({
          role: 'server',
          capabilities: () => ({ tools: {} }),
          onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'legacy', version: '1' } }),
        });
        session.setRequestHandler('tools/call', () => ({ content: [{ type: 'text', text: 'old but fine' }] }));
        await session.connect(transport);
      },
    });
    const listening = await mcp.listen({ port: 0 });
    try {
      const client = new Session({ role: 'client', capabilities: () => ({}), supportedVersions: ['2024-11-05'] });
      await client.connect(new SseClientTransport(new URL('/sse', listening.url)));
      const init = await client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      expect(init.protocolVersion).toBe('2024-11-05');
      expect(await client.request('tools/call', { name: 'x' })).toEqual({ content: [{ type: 'text', text: 'old but fine' }] });
      await client.close();
      expect(client.state.kind).toBe('terminated');
    } finally {
      await listening.close();
    }
  });
});
