import { ConnectionClosedError, SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { ListRefresher } from './list-refresh.js';
import type { Prompt, Resource, Tool } from './types.js';

/** A refresher over a fake list source whose fetches resolve when the test says so. */
function refresherOver(options: { debounceMs?: number; maxPages?: number } = {}) {
  const clock = new SimulatedClock();
  const delivered: number[][] = [];
  const errors: Error[] = [];
  const fetches: Array<{ maxPages: number | undefined; resolve: (items: number[]) => void; reject: (error: Error) => void }> = [];
  const refresher = new ListRefresher<number>(
    clock,
    { onChanged: (items) => delivered.push(items), onError: (error) => errors.push(error), ...options },
    (maxPages) => new Promise<number[]>((resolve, reject) => fetches.push({ maxPages, resolve, reject })),
  );
  return { clock, refresher, delivered, errors, fetches };
}

describe('ListRefresher', () => {
  describe('#changed', () => {
    it('fetches once after the notifications stop for debounceMs, and delivers the list', async () => {
      const { clock, refresher, delivered, fetches } = refresherOver({ debounceMs: 100, maxPages: 7 });
      refresher.changed();
      clock.advance(60);
      refresher.changed();
      clock.advance(60);
      refresher.changed();
      clock.advance(99);
      expect(fetches).toHaveLength(0);
      clock.advance(1);
      expect(fetches).toHaveLength(1);
      expect(fetches[0]?.maxPages).toBe(7);
      fetches[0]?.resolve([1, 2]);
      await flush();
      expect(delivered).toEqual([[1, 2]]);
    });

    it('waits 300 ms by default', () => {
      const { clock, refresher, fetches } = refresherOver();
      refresher.changed();
      clock.advance(299);
      expect(fetches).toHaveLength(0);
      clock.advance(1);
      expect(fetches).toHaveLength(1);
    });

    it('drops a fetch made stale by a newer notification and delivers the newer one only', async () => {
      const { clock, refresher, delivered, fetches } = refresherOver({ debounceMs: 10 });
      refresher.changed();
      clock.advance(10);
      refresher.changed(); // arrives while the first fetch runs
      clock.advance(10);
      expect(fetches).toHaveLength(2);
      fetches[1]?.resolve([2]);
      fetches[0]?.resolve([1]);
      await flush();
      expect(delivered).toEqual([[2]]);
    });

    it('reports a failed fetch and a throwing onChanged to onError', async () => {
      const { clock, refresher, errors, fetches } = refresherOver({ debounceMs: 0 });
      refresher.changed();
      clock.advance(0);
      fetches[0]?.reject(new Error('server said no'));
      await flush();
      expect(errors.map((e) => e.message)).toEqual(['server said no']);

      const clock2 = new SimulatedClock();
      const failures: Error[] = [];
      const throwing = new ListRefresher<number>(
        clock2,
        {
          onChanged: () => {
            throw new Error('callback broke');
          },
          onError: (error) => failures.push(error),
          debounceMs: 0,
        },
        async () => [1],
      );
      throwing.changed();
      clock2.advance(0);
      await flush();
      expect(failures.map((e) => e.message)).toEqual(['callback broke']);
    });

    it('refuses a negative or non-finite debounce', () => {
      const clock = new SimulatedClock();
      for (const debounceMs of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => new ListRefresher<number>(clock, { onChanged: () => undefined, debounceMs }, async () => [])).toThrow(RangeError);
      }
    });
  });

  describe('#stop', () => {
    it('clears the pending timer and drops a fetch still running', async () => {
      const { clock, refresher, delivered, errors, fetches } = refresherOver({ debounceMs: 10 });
      refresher.changed();
      clock.advance(10);
      refresher.stop();
      fetches[0]?.reject(new ConnectionClosedError('closed'));
      refresher.changed();
      refresher.stop();
      expect(clock.pendingTimers).toBe(0);
      clock.advance(100);
      await flush();
      expect(fetches).toHaveLength(1);
      expect(delivered).toEqual([]);
      expect(errors).toEqual([]);
    });
  });
});

describe('Client listChanged option', () => {
  const capabilities = { tools: { listChanged: true }, prompts: { listChanged: true }, resources: { listChanged: true } };

  it('refetches every page of the changed list after the debounce and hands over the new list', async () => {
    const tools: Tool[][] = [];
    const prompts: Prompt[][] = [];
    const resources: Resource[][] = [];
    const peer = createPeer({
      serverCapabilities: capabilities,
      client: {
        listChanged: {
          tools: { onChanged: (items) => tools.push(items), debounceMs: 50 },
          prompts: { onChanged: (items) => prompts.push(items), debounceMs: 50 },
          resources: { onChanged: (items) => resources.push(items), debounceMs: 50 },
        },
      },
    });
    let version = 1;
    const listed: string[] = [];
    peer.server.setRequestHandler('tools/list', (params: JsonObject) => {
      listed.push(`tools:${String(params.cursor)}`);
      return params.cursor === undefined
        ? { tools: [{ name: `a${version}`, inputSchema: { type: 'object' } }], nextCursor: 'p2' }
        : { tools: [{ name: `b${version}`, inputSchema: { type: 'object' } }] };
    });
    peer.server.setRequestHandler('prompts/list', () => ({ prompts: [{ name: `p${version}` }] }));
    peer.server.setRequestHandler('resources/list', () => ({ resources: [{ uri: `test://r${version}`, name: 'r' }] }));
    await peer.connect();

    version = 2;
    await peer.server.notify('notifications/tools/list_changed');
    await peer.server.notify('notifications/tools/list_changed');
    await peer.server.notify('notifications/prompts/list_changed');
    await peer.server.notify('notifications/resources/list_changed');
    await flush();
    peer.clock.advance(49);
    await flush();
    expect(listed).toEqual([]);
    peer.clock.advance(1);
    await flush();
    expect(listed).toEqual(['tools:undefined', 'tools:p2']);
    expect(tools.map((list) => list.map((t) => t.name))).toEqual([['a2', 'b2']]);
    expect(prompts.map((list) => list.map((p) => p.name))).toEqual([['p2']]);
    expect(resources.map((list) => list.map((r) => r.uri))).toEqual([['test://r2']]);
  });

  it('reports a refetch longer than maxPages as TooManyPagesError', async () => {
    const errors: Error[] = [];
    const peer = createPeer({
      serverCapabilities: capabilities,
      client: { listChanged: { tools: { onChanged: () => undefined, onError: (error) => errors.push(error), debounceMs: 0, maxPages: 1 } } },
    });
    peer.server.setRequestHandler('tools/list', () => ({ tools: [], nextCursor: 'more' }));
    await peer.connect();
    await peer.server.notify('notifications/tools/list_changed');
    await flush();
    peer.clock.advance(0);
    await flush();
    expect(errors).toEqual([expect.objectContaining({ name: 'TooManyPagesError', maxPages: 1 })]);
  });

  it('stops when the connection closes: no timer left, nothing delivered, no error reported', async () => {
    const tools: Tool[][] = [];
    const errors: Error[] = [];
    const peer = createPeer({
      serverCapabilities: capabilities,
      client: { listChanged: { tools: { onChanged: (items) => tools.push(items), onError: (error) => errors.push(error), debounceMs: 50 } } },
    });
    peer.server.setRequestHandler('tools/list', () => ({ tools: [] }));
    await peer.connect();
    await peer.server.notify('notifications/tools/list_changed');
    await flush();
    await peer.client.close();
    await flush();
    expect(peer.clock.pendingTimers).toBe(0);
    peer.clock.advance(1_000);
    await flush();
    expect(tools).toEqual([]);
    expect(errors).toEqual([]);
  });
});
