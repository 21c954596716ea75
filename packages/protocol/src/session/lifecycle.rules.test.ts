/**
 * The legacy lifecycle (MCP 2025-11-25 basic/lifecycle, basic/utilities/ping), decided by the
 * runner and the machine.
 */
import { describe, expect, it } from 'vitest';
import { LATEST_LEGACY_PROTOCOL_VERSION } from '../versions.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import { clientWithRawServer, createPair, flush, serverWithRawClient } from './test-support.js';

describe('Session lifecycle rules', () => {
  it('the client opens with initialize proposing its latest version, with capabilities and clientInfo', async () => {
    const { peer } = await clientWithRawServer();
    const first = peer.received[0];
    expect(first).toMatchObject({ method: 'initialize', params: { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
  });

  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('the server answers %s with the same version', async (version) => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize(version);
    expect(peer.response('init')).toMatchObject({ result: { protocolVersion: version } });
  });

  it('the server answers an unknown version with its latest, not an error', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize('1999-01-01');
    expect(peer.response('init')).toMatchObject({ result: { protocolVersion: LATEST_LEGACY_PROTOCOL_VERSION } });
  });

  it('the client disconnects with UnsupportedProtocolVersionError when the answer is unsupported', async () => {
    const { client, initialized, peer } = await clientWithRawServer({ version: '1999-01-01' });
    await expect(initialized).rejects.toMatchObject({ code: 'UNSUPPORTED_PROTOCOL_VERSION', requested: '1999-01-01' });
    await flush();
    expect(client.state).toMatchObject({ kind: 'terminated', reason: 'versionMismatch' });
    expect(peer.closed).toBe(true);
    expect(peer.sent('notifications/initialized')).toHaveLength(0);
  });

  it('notifications/initialized is sent exactly once, after the result, before any other request', async () => {
    const { client, initialized, peer } = await clientWithRawServer();
    await initialized;
    void client.request('tools/list');
    await flush();
    const methods = peer.received.map((m) => m.method);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/list']);
  });

  it('the client refuses requests other than ping before the initialize response', async () => {
    const pair = createPair();
    await pair.connect();
    const init = pair.client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    await expect(pair.client.request('tools/list')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(pair.client.request('ping')).resolves.toEqual({});
    await init;
  });

  it('the server refuses requests other than ping before notifications/initialized', async () => {
    const { server, initialize, peer } = await serverWithRawClient({ serverCapabilities: { tools: {}, logging: {} } });
    await initialize('2025-11-25', false);
    await expect(server.request('roots/list')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await expect(server.notify('notifications/tools/list_changed')).rejects.toMatchObject({ code: 'INVALID_STATE' });
    await server.notify('notifications/message', { level: 'info', data: 'allowed' });
    await flush();
    expect(peer.sent('notifications/message')).toHaveLength(1);
  });

  it('no notifications/cancelled for initialize, even when it times out', async () => {
    const { clock, client, peer } = await (async () => {
      const pair = createPair({ client: { defaultTimeoutMs: 1000 } });
      const { rawPeer } = await import('./test-support.js');
      const peer = await rawPeer(pair.serverTransport);
      await pair.client.connect(pair.clientTransport);
      return { clock: pair.clock, client: pair.client, peer };
    })();
    const init = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
    await flush();
    clock.advance(1000);
    await expect(init).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await flush();
    expect(peer.sent('notifications/cancelled')).toHaveLength(0);
    expect(client.state.kind).toBe('terminated');
  });

  it('the client refuses to send a method whose capability the server did not declare', async () => {
    const { client, initialized } = await clientWithRawServer({ serverCapabilities: { tools: {} } });
    await initialized;
    await expect(client.request('prompts/list')).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', capability: 'prompts' });
    await expect(client.request('resources/subscribe', { uri: 'x://y' })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
  });

  it('the server refuses to send sampling to a client that did not declare sampling', async () => {
    const pair = createPair({ clientCapabilities: {} });
    await pair.handshake();
    await expect(pair.server.request('sampling/createMessage', { messages: [], maxTokens: 1 })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED', capability: 'sampling' });
  });

  it('a server without prompts answers prompts/list with -32601', async () => {
    const { peer, initialize } = await serverWithRawClient({ serverCapabilities: { tools: {} } });
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'prompts/list' });
    await flush();
    expect(peer.response(1)).toMatchObject({ error: { code: -32601 } });
  });

  it('a request before initialize gets an error and no handler runs', async () => {
    let ran = false;
    const { peer, server } = await serverWithRawClient();
    server.setRequestHandler('tools/list', () => {
      ran = true;
      return { tools: [] };
    });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await flush();
    expect(peer.response(1)).toMatchObject({ error: { code: -32600 } });
    expect(ran).toBe(false);
    expect(server.state.kind).toBe('uninitialized');
  });

  it('a second initialize is rejected and the session keeps operating', async () => {
    const { peer, server, initialize } = await serverWithRawClient();
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    await flush();
    expect(peer.response(2)).toMatchObject({ error: { code: -32600 } });
    expect(server.state.kind).toBe('operating');
  });

  it('a request that overtakes notifications/initialized is served (lenient default)', async () => {
    const { peer, server, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    await initialize('2025-11-25', false);
    await peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    await flush();
    expect(peer.response(5)).toMatchObject({ result: { tools: [] } });
    expect(server.state.kind).toBe('operating');
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await flush();
    expect(server.state.kind).toBe('operating');
  });

  it('ping is answered with {} before initialize, between result and initialized, and while operating', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await peer.send({ jsonrpc: '2.0', id: 'p1', method: 'ping' });
    await flush();
    await initialize('2025-11-25', false);
    await peer.send({ jsonrpc: '2.0', id: 'p2', method: 'ping' });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.send({ jsonrpc: '2.0', id: 'p3', method: 'ping' });
    await flush();
    for (const id of ['p1', 'p2', 'p3']) expect(peer.response(id)).toEqual({ jsonrpc: '2.0', id, result: {} });
  });

  it('exposes the negotiated version, the peer and instructions', async () => {
    const pair = createPair({
      server: { onInitialize: (_p, version) => ({ protocolVersion: version, capabilities: {}, serverInfo: { name: 'srv', version: '2' }, instructions: 'Be kind' }) },
    });
    await pair.handshake();
    expect(pair.client.peer).toMatchObject({ info: { name: 'srv' }, instructions: 'Be kind' });
    expect((pair.server.peer?.capabilities as JsonObject).sampling).toEqual({});
  });
});

describe('Session stateless exchanges', () => {
  it('starts a server session operating when its transport carries an assumed protocol version', async () => {
    const { InMemoryTransport } = await import('../transport/in-memory.js');
    const { Session } = await import('./session.js');
    const { rawPeer } = await import('./test-support.js');
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    Object.defineProperty(serverSide, 'assumedProtocolVersion', { value: '2025-06-18' });
    const server = new Session({ role: 'server', capabilities: () => ({ tools: {} }) });
    server.setRequestHandler('tools/list', () => ({ tools: [] }));
    const peer = await rawPeer(clientSide);
    await server.connect(serverSide);
    expect(server.state).toMatchObject({ kind: 'operating', version: '2025-06-18' });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    await flush();
    expect(peer.response(1)).toMatchObject({ result: { tools: [] } });
  });

  describe('pipelined handshake (initialize, initialized and a request in one chunk)', () => {
    it.each([false, true])('answers initialize first, then the request, with strictInitialized %s', async (strictInitialized) => {
      const { peer, server } = await serverWithRawClient({
        server: {
          strictInitialized,
          // An asynchronous onInitialize, as a real server's is: the other frames arrive before it resolves.
          onInitialize: async (_p, version) => {
            await Promise.resolve();
            return { protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } };
          },
        },
      });
      server.setRequestHandler('tools/list', () => ({ tools: [] }));
      void peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      void peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      void peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await flush();
      expect(peer.received.map((m) => [m.id, 'result' in m ? 'result' : 'error'])).toEqual([
        [1, 'result'],
        [2, 'result'],
      ]);
      expect(server.state.kind).toBe('operating');
    });

    it('answers the held-back request with the usual error when initialize failed', async () => {
      const { peer } = await serverWithRawClient({
        server: {
          onInitialize: async () => {
            await Promise.resolve();
            throw new Error('no');
          },
        },
      });
      void peer.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      void peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      await flush();
      expect(peer.received.map((m) => m.id)).toEqual([1, 2]);
      expect(peer.response(2)).toMatchObject({ error: { code: -32600 } });
    });
  });
});
