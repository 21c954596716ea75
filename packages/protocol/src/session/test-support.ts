/**
 * Helpers shared by the protocol package's tests: a connected client/server session pair
 * over the in-memory transport, driven by one simulated clock.
 */
import { InMemoryTransport } from '../transport/in-memory.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import type { SessionOptions } from './options.js';
import type { JsonObject } from '../jsonrpc/messages.js';

export interface PairOptions {
  readonly version?: string;
  readonly client?: Partial<SessionOptions>;
  readonly server?: Partial<SessionOptions>;
  readonly serverCapabilities?: JsonObject;
  readonly clientCapabilities?: JsonObject;
}

/** Lets every queued microtask and promise callback run. */
export async function flush(rounds = 20): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

export function createPair(options: PairOptions = {}) {
  const clock = new SimulatedClock();
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const serverCapabilities = options.serverCapabilities ?? { tools: {}, logging: {} };
  const clientCapabilities = options.clientCapabilities ?? { sampling: {}, roots: { listChanged: true } };
  const server = new Session({
    role: 'server',
    clock,
    capabilities: () => serverCapabilities,
    onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: serverCapabilities, serverInfo: { name: 'test-server', version: '1.0.0' } }),
    ...options.server,
  });
  const client = new Session({ role: 'client', clock, capabilities: () => clientCapabilities, ...options.client });
  return {
    clock,
    client,
    server,
    clientTransport,
    serverTransport,
    clientCapabilities,
    async connect(): Promise<void> {
      await server.connect(serverTransport);
      await client.connect(clientTransport);
    },
    async handshake(): Promise<void> {
      await server.connect(serverTransport);
      await client.connect(clientTransport);
      await client.initialize({
        ...(options.version !== undefined ? { protocolVersion: options.version } : {}),
        capabilities: clientCapabilities,
        clientInfo: { name: 'test-client', version: '1.0.0' },
      });
      await flush();
    },
  };
}

/**
 * A raw peer: one end of an in-memory pair driven by hand, recording every message the
 * session under test sends.
 */
export async function rawPeer(transport: InMemoryTransport) {
  const received: JsonObject[] = [];
  let closed = false;
  await transport.start({
    onMessage: (value) => received.push(value as JsonObject),
    onClose: () => {
      closed = true;
    },
  });
  return {
    received,
    get closed() {
      return closed;
    },
    send: (message: JsonObject) => transport.send(message as never),
    /** Messages with this method. */
    sent: (method: string) => received.filter((m) => m.method === method),
    /** The response with this id. */
    response: (id: string | number) => received.find((m) => m.id === id && ('result' in m || 'error' in m)),
  };
}

/** A client session connected to a raw server peer, with the handshake answered by hand. */
export async function clientWithRawServer(options: { version?: string; serverCapabilities?: JsonObject; client?: Partial<SessionOptions> } = {}) {
  const clock = new SimulatedClock();
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const client = new Session({ role: 'client', clock, capabilities: () => ({}), ...options.client });
  const peer = await rawPeer(serverTransport);
  await client.connect(clientTransport);
  const initialized = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  await flush();
  const init = peer.received[0];
  if (init === undefined) throw new Error('no initialize arrived');
  await peer.send({
    jsonrpc: '2.0',
    id: init.id,
    result: {
      protocolVersion: options.version ?? (init.params as JsonObject).protocolVersion,
      capabilities: options.serverCapabilities ?? { tools: {}, prompts: {}, resources: { subscribe: true } },
      serverInfo: { name: 'raw', version: '1' },
    },
  });
  await flush();
  return { clock, client, peer, initialized, clientTransport, serverTransport };
}

/** A server session connected to a raw client peer. */
export async function serverWithRawClient(options: { server?: Partial<SessionOptions>; serverCapabilities?: JsonObject } = {}) {
  const clock = new SimulatedClock();
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const capabilities = options.serverCapabilities ?? { tools: {} };
  const server = new Session({
    role: 'server',
    clock,
    capabilities: () => capabilities,
    onInitialize: (_p, version) => ({ protocolVersion: version, capabilities, serverInfo: { name: 's', version: '1' } }),
    ...options.server,
  });
  const peer = await rawPeer(clientTransport);
  await server.connect(serverTransport);
  return {
    clock,
    server,
    peer,
    clientTransport,
    serverTransport,
    async initialize(version = '2025-11-25', sendInitialized = true): Promise<void> {
      await peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      await flush();
      if (sendInitialized) {
        await peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        await flush();
      }
    },
  };
}
