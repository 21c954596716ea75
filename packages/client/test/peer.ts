/**
 * Test helpers: a `Client` wired to a real peer — a raw protocol `Session` in the server
 * role — over the in-memory transport, all timers on one simulated clock.
 */
import { InMemoryTransport, Session, SimulatedClock, type JsonObject, type SessionOptions } from '@statemcp/protocol';
import { Client } from '../src/client.js';
import type { ClientOptions } from '../src/options.js';

export interface PeerOptions {
  /** The only version the server speaks (default: all legacy versions). */
  readonly version?: string;
  readonly serverCapabilities?: JsonObject;
  readonly instructions?: string;
  readonly client?: ClientOptions;
  readonly server?: Partial<SessionOptions>;
}

/** Lets queued microtasks and promise callbacks run. */
export async function flush(rounds = 30): Promise<void> {
  for (let i = 0; i < rounds; i++) await Promise.resolve();
}

export function createPeer(options: PeerOptions = {}) {
  const clock = new SimulatedClock();
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const capabilities = options.serverCapabilities ?? { tools: {}, resources: { subscribe: true, listChanged: true }, prompts: {}, logging: {}, completions: {} };
  const server = new Session({
    role: 'server',
    clock,
    capabilities: () => capabilities,
    ...(options.version !== undefined ? { supportedVersions: [options.version] } : {}),
    onInitialize: (_params, version) => ({
      protocolVersion: version,
      capabilities,
      serverInfo: { name: 'test-server', version: '1.0.0' },
      ...(options.instructions !== undefined ? { instructions: options.instructions } : {}),
    }),
    ...options.server,
  });
  const client = new Client({ name: 'test-client', version: '1.0.0' }, { clock, ...options.client });
  return {
    clock,
    client,
    server,
    clientSide,
    serverSide,
    /** Connects both ends and completes the handshake. */
    async connect(): Promise<void> {
      await server.connect(serverSide);
      await client.connect(clientSide);
      await flush();
    },
  };
}
