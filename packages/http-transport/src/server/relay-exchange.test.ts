import { systemClock, type BusHandler, type MessageBus } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { TextAnswer, errorResponse, toResponse, type HttpAnswer } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { InMemoryMessageBus } from './memory-shared-state.js';
import { RelayExchange, type RelayRequest } from './relay-exchange.js';
import { relayedInbound } from './relayed-inbound.js';
import { SseConnection } from './sse-connection.js';
import { SharedStoreUnavailableError, busChannel } from './shared-state.js';

/** A bus whose publishes on `failing` reject later, the way a Redis publish cut by a cluster's failover does. */
class FailingBus implements MessageBus {
  readonly #bus = new InMemoryMessageBus();

  constructor(readonly failing: string) {}

  publish(channel: string, payload: string): Promise<number> {
    if (channel === this.failing) return new Promise((_resolve, reject) => setTimeout(() => reject(new SharedStoreUnavailableError('bus', 'Redis is unreachable: Disconnects client')), 1));
    return Promise.resolve(this.#bus.publish(channel, payload));
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    return this.#bus.subscribe(channel, handler);
  }
}

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);

afterEach(() => {
  process.off('unhandledRejection', onUnhandled);
  unhandled.length = 0;
});

async function until(what: string, check: () => boolean): Promise<void> {
  const deadline = Date.now() + 2000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('RelayExchange, the owner answering a relayed request', () => {
  it('a frame whose publish fails while the answer still streams ends the answer and is reported, never left unhandled', async () => {
    process.on('unhandledRejection', onUnhandled);
    const bus = new FailingBus(busChannel.instance('b'));
    const errors: unknown[] = [];
    let served: InboundRequest | undefined;
    let cancelled = false;
    // An SSE answer that says one thing at once and then stays open (a tool streaming progress).
    const serve = (inbound: InboundRequest): Promise<Response> => {
      served = inbound;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('id: s.1:1-0\ndata: \n\n')),
        cancel: () => void (cancelled = true),
      });
      return Promise.resolve(new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }));
    };
    const owner = new RelayExchange(bus, 'a', systemClock, (error) => void errors.push(error), serve);
    await owner.listen();

    await bus.publish(busChannel.instance('a'), JSON.stringify({ kind: 'request', relay: 'r1', replyTo: 'b', method: 'POST', url: 'http://127.0.0.1/mcp', headers: {}, body: '{}' }));
    await until('the failed publish to be reported', () => errors.length > 0 || unhandled.length > 0);
    // Before: the publish's rejection waited, unhandled, for the answer's end (which never came).
    expect(unhandled).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(SharedStoreUnavailableError);
    // The answer was ended as if its client had gone: the request's signal aborted, the body cancelled.
    expect(served?.signal?.aborted).toBe(true);
    expect(cancelled).toBe(true);
    expect(owner.counts.served).toBe(1);
  });
});

/** A bus that counts the publishes on each channel. */
class CountingBus implements MessageBus {
  readonly #bus = new InMemoryMessageBus();
  readonly published = new Map<string, number>();

  publish(channel: string, payload: string): number {
    this.published.set(channel, (this.published.get(channel) ?? 0) + 1);
    return this.#bus.publish(channel, payload);
  }

  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>> {
    return this.#bus.subscribe(channel, handler);
  }
}

/** A relayed POST whose client is gone once `leave` is called. */
function post(body: string): { request: RelayRequest; leave: () => void } {
  const listeners: (() => void)[] = [];
  const client = { signal: undefined, onClientGone: (listener: () => void) => void listeners.push(listener) };
  const request: RelayRequest = { method: 'POST', url: 'http://127.0.0.1/mcp?x=1', headers: { 'content-type': 'application/json', 'mcp-session-id': 's1' }, body, client };
  return { request, leave: () => listeners.forEach((listener) => listener()) };
}

const lost = (): Response => errorResponse(502, -32603, 'lost');

/** The owner `a` serving with `serve`, and the relaying instance `b`. */
async function pair(serve: (inbound: InboundRequest) => Promise<HttpAnswer>): Promise<{ bus: CountingBus; relaying: RelayExchange; errors: unknown[] }> {
  const bus = new CountingBus();
  const errors: unknown[] = [];
  const owner = new RelayExchange(bus, 'a', systemClock, (error) => void errors.push(error), serve);
  const relaying = new RelayExchange(bus, 'b', systemClock, (error) => void errors.push(error), () => Promise.reject(new Error('not the owner')));
  await owner.listen();
  return { bus, relaying, errors };
}

describe('RelayExchange, an SSE answer relayed', () => {
  it('serves the request from the message itself and returns an answer complete within a turn in one publish, written from its text', async () => {
    let seen: { method: string; path: string; query: string | null; type: string | undefined; body: unknown } | undefined;
    const { bus, relaying, errors } = await pair(async (inbound) => {
      const read = await inbound.readBody(1000);
      seen = { method: inbound.method, path: inbound.pathname, query: inbound.searchParams.get('x'), type: inbound.header('content-type'), body: read };
      const connection = new SseConnection();
      // A priming event and the answer written after the request was answered with the connection (their store's append).
      void Promise.resolve().then(() => {
        connection.write('id: 1\ndata: \n\n');
        connection.write('id: 2\ndata: {"ok":true}\n\n');
        connection.close();
      });
      return connection;
    });
    const answer = await relaying.relay('s1', 'a', post('{"jsonrpc":"2.0","id":1,"method":"ping"}').request, lost, undefined, true);
    expect(seen).toEqual({ method: 'POST', path: '/mcp', query: '1', type: 'application/json', body: { ok: true, text: '{"jsonrpc":"2.0","id":1,"method":"ping"}' } });
    expect(answer).toBeInstanceOf(TextAnswer);
    const response = toResponse(answer as HttpAnswer);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    await expect(response.text()).resolves.toBe('id: 1\ndata: \n\nid: 2\ndata: {"ok":true}\n\n');
    // Head, both events and the end in one message back.
    expect(bus.published.get(busChannel.instance('b'))).toBe(1);
    expect(errors).toEqual([]);
  });

  it("streams an answer still open, and cancels it on the owner when the relaying instance's client goes away", async () => {
    let connection: SseConnection | undefined;
    let served: InboundRequest | undefined;
    let cancelled = false;
    const { relaying, errors } = await pair((inbound) => {
      served = inbound;
      connection = new SseConnection();
      connection.onCancel = () => void (cancelled = true);
      connection.write('id: 1\ndata: \n\n');
      return Promise.resolve(connection);
    });
    const { request, leave } = post('{}');
    const answer = await relaying.relay('s1', 'a', request, lost, undefined, true);
    const reader = toResponse(answer as HttpAnswer).body?.getReader();
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('id: 1\ndata: \n\n');
    connection?.write('event: progress\ndata: {}\n\n');
    expect(new TextDecoder().decode((await reader?.read())?.value)).toBe('event: progress\ndata: {}\n\n');
    leave();
    await until('the owner to cancel the answer', () => cancelled);
    expect(connection?.open).toBe(false);
    expect(served?.signal?.aborted).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('relayedInbound', () => {
  it('reads the relayed body under the limit, and refuses more', async () => {
    const parts = { method: 'POST', url: 'http://127.0.0.1:3000/mcp', headers: { host: '127.0.0.1:3000' }, body: 'é'.repeat(10) };
    await expect(relayedInbound(parts, undefined).readBody(20)).resolves.toEqual({ ok: true, text: 'é'.repeat(10) });
    await expect(relayedInbound(parts, undefined).readBody(19)).resolves.toEqual({ ok: false, tooLarge: true });
    await expect(relayedInbound({ ...parts, body: undefined }, undefined).readBody(0)).resolves.toEqual({ ok: true, text: '' });
  });

  it('gives hooks a Request with the relayed URL, headers and body', async () => {
    const inbound = relayedInbound({ method: 'POST', url: 'http://example.test/mcp', headers: { authorization: 'Bearer t' }, body: '{}' }, undefined);
    const request = inbound.toRequest();
    expect(request.url).toBe('http://example.test/mcp');
    expect(request.headers.get('authorization')).toBe('Bearer t');
    await expect(request.text()).resolves.toBe('{}');
    expect(inbound.header('host')).toBe('example.test');
    // Only the relayed headers: nothing of a plain object's prototype.
    expect(inbound.header('constructor')).toBeUndefined();
    expect([...inbound.headerNames()]).toEqual(['authorization']);
    expect(inbound.requestInfo()).toEqual({ method: 'POST', url: 'http://example.test/mcp', headers: { authorization: 'Bearer t' }, remoteAddress: undefined });
  });
});
