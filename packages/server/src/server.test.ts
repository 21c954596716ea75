import {
  AlreadyConnectedError,
  ErrorCode,
  InMemoryTransport,
  JsonRpcError,
  LEGACY_PROTOCOL_VERSIONS,
  Session,
  SimulatedClock,
  type JsonObject,
} from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { Server } from './server.js';
import { connectClient, flush, initializedClient } from './test-harness.js';

const INFO = { name: 'test-server', version: '1.0.0', title: 'Test Server', description: 'For tests', websiteUrl: 'https://example.com', icons: [{ src: 'https://example.com/i.png' }] };

function errorOf(message: JsonObject | undefined): { code: number; message: string } | undefined {
  return message?.error as { code: number; message: string } | undefined;
}

describe('Server', () => {
  describe('#connect', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('answers the handshake at %s with that version', async (version) => {
      const server = new Server(INFO, { instructions: 'Use the tools.' });
      const test = await connectClient(server, { version });
      const result = await test.initialize();
      expect(result.protocolVersion).toBe(version);
      expect(result.instructions).toBe('Use the tools.');
      expect(test.connection.protocolVersion).toBe(version);
      expect(test.connection.clientInfo?.name).toBe('test-client');
      expect(test.connection.isOperating).toBe(true);
    });

    it.each([
      ['2024-11-05', { name: 'test-server', version: '1.0.0' }],
      ['2025-03-26', { name: 'test-server', version: '1.0.0' }],
      ['2025-06-18', { name: 'test-server', version: '1.0.0', title: 'Test Server' }],
      ['2025-11-25', INFO],
    ])('shapes serverInfo for %s, dropping fields the revision lacks', async (version, expected) => {
      const server = new Server(INFO);
      const test = await connectClient(server, { version });
      await test.initialize();
      const reply = test.received.find((m) => (m.result as JsonObject | undefined)?.serverInfo !== undefined);
      expect((reply?.result as JsonObject).serverInfo).toEqual(expected);
    });

    it('drops capabilities a revision lacks from the InitializeResult', async () => {
      const server = new Server(INFO, { capabilities: { logging: {}, completions: {}, tasks: { list: {} }, tools: {} } });
      const old = await connectClient(server, { version: '2024-11-05' });
      expect((await old.initialize()).capabilities).toEqual({ logging: {}, tools: {} });
      const mid = await connectClient(server, { version: '2025-06-18' });
      expect((await mid.initialize()).capabilities).toEqual({ logging: {}, completions: {}, tools: {} });
    });

    it('answers an unknown requested version with its latest supported one', async () => {
      const server = new Server(INFO, { supportedVersions: ['2025-03-26', '2025-06-18'] });
      const test = await connectClient(server, { session: { supportedVersions: ['2025-06-18', '2025-11-25'] }, version: '2025-11-25' });
      expect((await test.initialize()).protocolVersion).toBe('2025-06-18');
    });

    it('refuses a transport that is already connected with AlreadyConnectedError', async () => {
      const server = new Server(INFO);
      const [, serverTransport] = InMemoryTransport.createPair();
      await server.connect(serverTransport);
      await expect(server.connect(serverTransport)).rejects.toBeInstanceOf(AlreadyConnectedError);
      const other = new Server(INFO);
      await expect(other.connect(serverTransport)).rejects.toThrow();
    });

    it('serves many connections with shared handlers and per-connection state', async () => {
      const server = new Server(INFO, { capabilities: { logging: {}, tools: {} } });
      server.setRequestHandler('tools/list', (_params, context) => ({ tools: [], _meta: { connection: context.connection.id } }));
      const a = await initializedClient(server);
      const b = await initializedClient(server);
      expect(server.connections).toHaveLength(2);
      const ra = await a.client.request('tools/list');
      const rb = await b.client.request('tools/list');
      expect(ra._meta).not.toEqual(rb._meta);
      await a.client.request('logging/setLevel', { level: 'error' });
      expect(a.connection.logLevel).toBe('error');
      expect(b.connection.logLevel).toBeUndefined();
    });
  });

  describe('lifecycle gating', () => {
    it('answers tools/list before initialize with a JSON-RPC error and runs no handler', async () => {
      let ran = 0;
      const server = new Server(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => {
        ran++;
        return { tools: [] };
      });
      const test = await connectClient(server);
      test.clientTransport.send({ jsonrpc: '2.0', id: 99, method: 'tools/list' });
      await flush();
      const reply = test.received.find((m) => m.id === 99);
      expect(errorOf(reply)?.code).toBe(ErrorCode.InvalidRequest);
      expect(ran).toBe(0);
      expect(test.connection.state.kind).toBe('uninitialized');
    });

    it('answers ping before initialize', async () => {
      const server = new Server(INFO);
      const test = await connectClient(server);
      test.clientTransport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      await flush();
      expect(test.received.find((m) => m.id === 1)?.result).toEqual({});
    });

    it('refuses a second initialize', async () => {
      const server = new Server(INFO);
      const test = await initializedClient(server);
      test.clientTransport.send({ jsonrpc: '2.0', id: 'again', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
      await flush();
      expect(errorOf(test.received.find((m) => m.id === 'again'))?.code).toBe(ErrorCode.InvalidRequest);
      expect(test.connection.isOperating).toBe(true);
    });

    async function rawHandshake(server: Server) {
      const test = await connectClient(server);
      test.clientTransport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await flush();
      return test;
    }

    it('treats a request that overtakes notifications/initialized as implying it (lenient default)', async () => {
      const server = new Server(INFO, { capabilities: { tools: {} } });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      const test = await rawHandshake(server);
      expect(test.connection.state.kind).toBe('initialized');
      test.clientTransport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      test.clientTransport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await flush();
      expect(test.received.find((m) => m.id === 2)?.result).toEqual({ tools: [] });
      expect(test.connection.state.kind).toBe('operating');
    });

    it('refuses that request with strictInitialized and stays usable', async () => {
      const server = new Server(INFO, { capabilities: { tools: {} }, strictInitialized: true });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      const test = await rawHandshake(server);
      test.clientTransport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await flush();
      expect(errorOf(test.received.find((m) => m.id === 2))?.code).toBe(ErrorCode.InvalidRequest);
      test.clientTransport.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      test.clientTransport.send({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
      await flush();
      expect(test.received.find((m) => m.id === 3)?.result).toEqual({ tools: [] });
    });
  });

  describe('error codes', () => {
    const server = new Server(INFO, { capabilities: { tools: {}, logging: {} } });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    server.setRequestHandler('tools/call', (params) => {
      if (params.name === 'bug') throw new Error('boom');
      if (params.name === 'wire') throw new JsonRpcError(ErrorCode.InvalidParams, 'Unknown tool: wire');
      return { content: [] };
    });

    it.each<[string, JsonObject, number]>([
      ['an unknown method', { method: 'nope/nope' }, ErrorCode.MethodNotFound],
      ['a method of an undeclared capability (prompts/list)', { method: 'prompts/list' }, ErrorCode.MethodNotFound],
      ['a client-only method sent to the server (roots/list)', { method: 'roots/list' }, ErrorCode.MethodNotFound],
      ['params of the wrong type', { method: 'tools/call', params: { name: 42 } }, ErrorCode.InvalidParams],
      ['a missing required param', { method: 'tools/call', params: {} }, ErrorCode.InvalidParams],
      ['an invalid log level', { method: 'logging/setLevel', params: { level: 'loud' } }, ErrorCode.InvalidParams],
      ['a handler choosing -32602', { method: 'tools/call', params: { name: 'wire' } }, ErrorCode.InvalidParams],
      ['a handler that throws', { method: 'tools/call', params: { name: 'bug' } }, ErrorCode.InternalError],
      ['a request that is not JSON-RPC', { method: 7 }, ErrorCode.InvalidRequest],
    ])('answers %s with the right code', async (_label, message, code) => {
      const test = await initializedClient(server);
      test.serverTransport.injectRaw({ jsonrpc: '2.0', id: 'probe', ...message });
      await flush();
      expect(errorOf(test.received.find((m) => m.id === 'probe'))?.code).toBe(code);
    });

    it('answers malformed JSON with -32700 and "id": null', async () => {
      const test = await initializedClient(server);
      test.serverTransport.injectMalformed('{not json');
      await flush();
      expect(errorOf(test.received.find((m) => m.error !== undefined && m.id === null))?.code).toBe(ErrorCode.ParseError);
    });
  });

  describe('#close', () => {
    it('closes every connection and forgets them', async () => {
      const server = new Server(INFO);
      const a = await initializedClient(server);
      const b = await initializedClient(server);
      await server.close();
      expect(server.connections).toHaveLength(0);
      await a.client.closed;
      await b.client.closed;
      expect(a.connection.state.kind).toBe('terminated');
    });

    it('calls onconnectionclose once per connection, when it has terminated and left the server', async () => {
      const events: string[] = [];
      const server = new Server(INFO, {
        onconnectionclose: (connection) => events.push(`${connection.id}:${connection.state.kind}:${server.connections.includes(connection)}`),
      });
      const a = await initializedClient(server);
      const b = await initializedClient(server);
      await a.connection.close();
      expect(events).toEqual([`${a.connection.id}:terminated:false`]);
      await server.close();
      await b.connection.closed;
      await a.connection.close();
      expect(events).toEqual([`${a.connection.id}:terminated:false`, `${b.connection.id}:terminated:false`]);
    });

    it('lets a transport be connected again after its connection ended', async () => {
      const server = new Server(INFO);
      const test = await initializedClient(server);
      await test.connection.close();
      expect(server.connections).toHaveLength(0);
    });
  });

  describe('#setRequestHandler', () => {
    it('reaches connections that already exist', async () => {
      const server = new Server(INFO, { capabilities: { tools: {} } });
      const test = await initializedClient(server);
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      await expect(test.client.request('tools/list')).resolves.toEqual({ tools: [] });
      server.removeRequestHandler('tools/list');
      await expect(test.client.request('tools/list')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    });
  });

  describe('notifications', () => {
    it('delivers client notifications to handlers with the connection', async () => {
      const server = new Server(INFO);
      const seen: string[] = [];
      server.setNotificationHandler('notifications/roots/list_changed', (_params, context) => {
        seen.push(context.connection.id);
      });
      const test = await initializedClient(server, { capabilities: { roots: { listChanged: true } } });
      await test.client.notify('notifications/roots/list_changed');
      await flush();
      expect(seen).toEqual([test.connection.id]);
    });
  });

  describe('outbound requests', () => {
    const hang = { 'roots/list': () => new Promise<JsonObject>(() => {}) };

    it('sends notifications/cancelled for a request still pending at close and rejects it as closed', async () => {
      const server = new Server(INFO);
      const test = await initializedClient(server, { capabilities: { roots: {} }, handlers: hang });
      const pending = test.connection.listRoots();
      await flush();
      await test.connection.close();
      await expect(pending).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
      const cancels = test.notifications('notifications/cancelled');
      expect(cancels).toHaveLength(1);
      expect((cancels[0]?.params as JsonObject).requestId).toBe(test.requests('roots/list')[0]?.id);
    });

    it('tells timeout, cancellation and a closed connection apart', async () => {
      const clock = new SimulatedClock();
      const server = new Server(INFO, { clock });
      const test = await initializedClient(server, { clock, capabilities: { roots: {} }, handlers: hang });
      const timedOut = test.connection.listRoots({ timeoutMs: 10 });
      const controller = new AbortController();
      const cancelled = test.connection.listRoots({ signal: controller.signal });
      const closed = test.connection.listRoots();
      await flush();
      clock.advance(10);
      controller.abort();
      await expect(timedOut).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      await expect(cancelled).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
      await test.connection.close();
      await expect(closed).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
    });

    it('drops a late response to a request that already timed out', async () => {
      const clock = new SimulatedClock();
      let answer: ((value: JsonObject) => void) | undefined;
      const server = new Server(INFO, { clock });
      const test = await initializedClient(server, {
        clock,
        capabilities: { roots: {} },
        handlers: { 'roots/list': () => new Promise<JsonObject>((resolve) => (answer = resolve)) },
        session: { strictCapabilities: true },
      });
      const first = test.connection.listRoots({ timeoutMs: 5 });
      await flush();
      clock.advance(5);
      await expect(first).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      const id = test.requests('roots/list')[0]?.id;
      test.clientTransport.send({ jsonrpc: '2.0', id: id as number, result: { roots: [] } });
      answer?.({ roots: [] });
      await flush();
      expect(test.connection.isOperating).toBe(true);
      await expect(test.connection.ping()).resolves.toBeTypeOf('number');
    });
  });

  it('uses the simulated clock for server-to-client request timeouts', async () => {
    const clock = new SimulatedClock();
    const server = new Server(INFO, { clock, defaultTimeoutMs: 1_000 });
    const test = await initializedClient(server, { clock, capabilities: { roots: {} }, handlers: { 'roots/list': () => new Promise(() => {}) } });
    const pending = test.connection.listRoots();
    await flush();
    clock.advance(1_000);
    await expect(pending).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    expect(test.notifications('notifications/cancelled')).toHaveLength(1);
    void Session;
  });
});
