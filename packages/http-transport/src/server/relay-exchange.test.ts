import { systemClock, type BusHandler, type MessageBus } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import type { InboundRequest } from './inbound.js';
import { InMemoryMessageBus } from './memory-shared-state.js';
import { RelayExchange } from './relay-exchange.js';
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
