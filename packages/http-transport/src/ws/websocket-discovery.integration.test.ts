/**
 * Discovery over WebSocket (2026-07-28): the server at the other end of the socket answers or
 * closes it, so the client's `server/discover` is not cut by `discoveryTimeoutMs` — a server slow
 * to answer is still taken for the modern one it is, not for a legacy one that needs `initialize`.
 * The client's timers run on a `SimulatedClock`; the server holds the request until told.
 */
import { Client } from '@statemcp/client';
import { SimulatedClock, type Transport, type TransportSink } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterEach, describe, expect, it } from 'vitest';

import { WebSocketClientTransport, createWebSocketServer, type WebSocketMcpServer } from './index.js';

let running: WebSocketMcpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Delivers what `transport` receives to the server only once `released`; reports each method as it arrives. */
function held(transport: Transport, released: Promise<void>, arrived: (method: unknown) => void): Transport {
  const bound = <T extends object>(target: T, key: string | symbol): unknown => {
    const value: unknown = Reflect.get(target, key);
    return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key !== 'start') return bound(target, key);
      return (sink: TransportSink) =>
        target.start(
          new Proxy(sink, {
            get(inner, name) {
              if (name !== 'onMessage') return bound(inner, name);
              return (value: unknown) => {
                arrived((value as { method?: unknown }).method);
                void released.then(() => inner.onMessage(value));
              };
            },
          }),
        );
    },
  });
}

describe('discovery over WebSocket', () => {
  it('waits past discoveryTimeoutMs for a slow server and speaks 2026-07-28 with it', async () => {
    const mcp = new McpServer({ name: 'ws-slow', version: '1.0.0' });
    mcp.registerTool('echo', {}, () => ({ content: [{ type: 'text', text: 'echo' }] }));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const methods: unknown[] = [];
    let discoverArrived!: () => void;
    const discovering = new Promise<void>((resolve) => (discoverArrived = resolve));
    running = await createWebSocketServer({
      port: 0,
      connect: async (transport) => {
        await mcp.connect(
          held(transport, released, (method) => {
            methods.push(method);
            if (method === 'server/discover') discoverArrived();
          }),
        );
      },
    });

    const clock = new SimulatedClock();
    const client = new Client({ name: 'ws-discovery', version: '1.0.0' }, { era: 'auto', clock, discoveryTimeoutMs: 1_000 });
    const connecting = client.connect(new WebSocketClientTransport(running.url));
    await discovering;
    clock.advance(5_000); // five times discoveryTimeoutMs: a transport whose peer may stay silent would fall back now
    release();
    await connecting;

    expect(client.era).toBe('modern');
    expect(methods).toEqual(['server/discover']);
    expect((await client.callTool({ name: 'echo', arguments: {} })).content).toEqual([{ type: 'text', text: 'echo' }]);
    await client.close();
  });
});
