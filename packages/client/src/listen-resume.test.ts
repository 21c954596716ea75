/**
 * Listen streams across connections (legacy era, scripted by hand): a stream waits out a lost
 * connection and the next `connect()` subscribes it again; a Streamable HTTP session the server
 * forgot re-runs the handshake and the stream subscribes again; `resume: false`, `close()` and
 * `client.close()` end it. The 2026-07-28 era is covered with a real child process in
 * `@statemcp/stdio-transport` (test/listen.integration.test.ts).
 */
import type { JsonObject, JsonRpcMessage, JsonRpcRequest, Transport, TransportSink } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { flush } from '../test/peer.js';
import { Client } from './client.js';
import type { ListenNotification, SubscriptionFilter } from './listen.js';

const initializeResult = {
  protocolVersion: '2025-11-25',
  capabilities: { resources: { subscribe: true, listChanged: true } },
  serverInfo: { name: 's', version: '1' },
};

/** A legacy server by hand: answers `initialize` and `resources/subscribe`, records what was sent. */
class ScriptedServer implements Transport {
  readonly sent: JsonRpcMessage[] = [];
  sink: TransportSink | undefined;

  start(sink: TransportSink): Promise<void> {
    this.sink = sink;
    return Promise.resolve();
  }

  send(message: JsonRpcMessage): Promise<void> {
    this.sent.push(message);
    if ('method' in message && 'id' in message) {
      const request = message;
      if (request.method === 'initialize') queueMicrotask(() => this.sink?.onMessage({ jsonrpc: '2.0', id: request.id, result: initializeResult }));
      if (request.method === 'resources/subscribe') queueMicrotask(() => this.sink?.onMessage({ jsonrpc: '2.0', id: request.id, result: {} }));
    }
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.sink?.onClose({ initiator: 'local' });
    return Promise.resolve();
  }

  /** The server process went away. */
  lose(): void {
    this.sink?.onClose({ initiator: 'remote' });
  }

  updated(uri: string): void {
    this.sink?.onMessage({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  }

  subscribed(): unknown[] {
    return this.sent.filter((m): m is JsonRpcRequest => 'method' in m && m.method === 'resources/subscribe').map((m) => (m.params as JsonObject).uri);
  }
}

async function connected(): Promise<{ client: Client; server: ScriptedServer }> {
  // The legacy era's resumption (resources/subscribe again); the modern era's is covered over real stdio and HTTP.
  const client = new Client({ name: 'c', version: '1' }, { era: 'legacy' });
  const server = new ScriptedServer();
  await client.connect(server);
  return { client, server };
}

function collect(stream: { onNotification(listener: (notification: ListenNotification) => void): () => void }): unknown[] {
  const seen: unknown[] = [];
  stream.onNotification((notification) => seen.push(notification.params.uri));
  return seen;
}

describe('client.listen across connections', () => {
  it('waits out a lost connection and subscribes again on the next connect()', async () => {
    const { client, server } = await connected();
    const stream = await client.listen({ resourceSubscriptions: ['file:///a'] });
    const seen = collect(stream);
    const resumed: SubscriptionFilter[] = [];
    stream.onResumed((acknowledged) => resumed.push(acknowledged));
    server.lose();
    await client.closed;
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await flush();
    expect(ended).toBe(false);

    const next = new ScriptedServer();
    await client.connect(next);
    await flush();
    expect(next.subscribed()).toEqual(['file:///a']);
    expect(resumed).toEqual([{ resourceSubscriptions: ['file:///a'] }]);
    next.updated('file:///a');
    next.updated('file:///b');
    expect(seen).toEqual(['file:///a']);
    await client.close();
    expect(await stream.ended).toMatchObject({ reason: 'connection' });
  });

  it('subscribes again when the session is re-established after the server forgot it', async () => {
    const { client, server } = await connected();
    const stream = await client.listen({ resourceSubscriptions: ['file:///a'] });
    server.sink?.onSessionExpired?.();
    await flush();
    expect(client.session.state.kind).toBe('operating');
    expect(server.subscribed()).toEqual(['file:///a', 'file:///a']);
    let ended = false;
    void stream.ended.then(() => (ended = true));
    await flush();
    expect(ended).toBe(false);
    await client.close();
  });

  it('ends with the connection when opened with resume: false', async () => {
    const { client, server } = await connected();
    const stream = await client.listen({ resourceSubscriptions: ['file:///a'] }, { resume: false });
    server.lose();
    expect(await stream.ended).toMatchObject({ reason: 'connection' });
    const next = new ScriptedServer();
    await client.connect(next);
    await flush();
    expect(next.subscribed()).toEqual([]);
    await client.close();
  });

  it('ends a waiting stream at once when it is closed, or when the client is closed while disconnected', async () => {
    const { client, server } = await connected();
    const closedByHand = await client.listen({ resourceSubscriptions: ['file:///a'] });
    const closedWithClient = await client.listen({ resourceSubscriptions: ['file:///b'] });
    server.lose();
    await client.closed;
    await closedByHand.close();
    expect(await closedByHand.ended).toEqual({ reason: 'closed' });
    await client.close();
    expect(await closedWithClient.ended).toMatchObject({ reason: 'connection' });
    const next = new ScriptedServer();
    await client.connect(next);
    await flush();
    expect(next.subscribed()).toEqual([]);
    await client.close();
  });
});
