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
