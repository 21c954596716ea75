import { RequestCancelledError, RequestTimeoutError, SimulatedClock, type InspectEvent, type RequestContext } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';
import type { ClientOptions } from './options.js';

/** A peer whose `tools/call` handler never answers; the test drives progress through `calls`. */
async function slowPeer(client: ClientOptions = {}) {
  const peer = createPeer({ client });
  const calls: RequestContext[] = [];
  peer.server.setRequestHandler('tools/call', (_params, context) => {
    calls.push(context);
    return new Promise(() => {});
  });
  await peer.connect();
  return { ...peer, calls };
}

describe('Client', () => {
  describe('timeouts', () => {
    it('applies the client-wide defaultTimeoutMs and sends notifications/cancelled', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000 });
      const call = peer.client.callTool({ name: 'slow' });
      call.catch(() => undefined);
      await flush();
      peer.clock.advance(999);
      await flush();
      expect(peer.client.session.pendingRequests()).toHaveLength(1);
      peer.clock.advance(1);
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect(error).toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 1_000, category: 'timeout' });
      await flush();
      expect(peer.calls[0]?.signal.aborted).toBe(true);
    });

    it('lets a call override the default', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000 });
      const call = peer.client.callTool({ name: 'slow' }, { timeoutMs: 200 });
      call.catch(() => undefined);
      await flush();
      peer.clock.advance(200);
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 200 });
    });

    it('restarts the timeout on each progress notification and reports the progress', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000 });
      const updates: unknown[] = [];
      const call = peer.client.callTool({ name: 'slow' }, { onProgress: (update) => updates.push(update) });
      call.catch(() => undefined);
      await flush();
      const context = peer.calls[0];
      for (const step of [1, 2, 3]) {
        peer.clock.advance(800);
        await context?.sendProgress(step, 10, `step ${step}`);
        await flush();
      }
      expect(peer.client.session.pendingRequests()).toHaveLength(1);
      expect(updates).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 10, message: `step ${step}` })));
      peer.clock.advance(1_000);
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(peer.clock.now()).toBe(3_400);
    });

    it('does not restart the timeout when resetTimeoutOnProgress is false', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000, resetTimeoutOnProgress: false });
      const call = peer.client.callTool({ name: 'slow' }, { onProgress: () => undefined });
      call.catch(() => undefined);
      await flush();
      peer.clock.advance(800);
      await peer.calls[0]?.sendProgress(1);
      await flush();
      peer.clock.advance(200);
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
    });

    it('enforces the hard maximum even while progress keeps arriving', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000, maxTotalTimeoutMs: 2_500 });
      const call = peer.client.callTool({ name: 'slow' }, { onProgress: () => undefined });
      call.catch(() => undefined);
      await flush();
      for (const step of [1, 2, 3]) {
        peer.clock.advance(800);
        await peer.calls[0]?.sendProgress(step);
        await flush();
      }
      peer.clock.advance(100);
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect(error).toMatchObject({ timeoutMs: 2_500 });
      expect((error as Error).message).toContain('hard maximum');
      expect(peer.clock.now()).toBe(2_500);
    });

    it('lets a call set its own hard maximum', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000 });
      const call = peer.client.callTool({ name: 'slow' }, { maxTotalTimeoutMs: 1_500, onProgress: () => undefined });
      call.catch(() => undefined);
      await flush();
      peer.clock.advance(900);
      await peer.calls[0]?.sendProgress(1);
      await flush();
      peer.clock.advance(600);
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 1_500 });
    });
  });

  describe('errors of an unfinished call', () => {
    it('tells a timeout, a cancellation and a closed connection apart by error.code', async () => {
      const peer = await slowPeer({ defaultTimeoutMs: 1_000 });
      const controller = new AbortController();
      const timedOut = peer.client.callTool({ name: 'slow' }, { timeoutMs: 100 }).catch((e: unknown) => e);
      const cancelled = peer.client.callTool({ name: 'slow' }, { signal: controller.signal }).catch((e: unknown) => e);
      const closed = peer.client.callTool({ name: 'slow' }).catch((e: unknown) => e);
      await flush();
      peer.clock.advance(100);
      controller.abort('no longer needed');
      await flush();
      await peer.client.close();
      const errors = (await Promise.all([timedOut, cancelled, closed])) as { code: string; category: string }[];
      expect(errors.map((e) => e.code)).toEqual(['REQUEST_TIMEOUT', 'REQUEST_CANCELLED', 'CONNECTION_CLOSED']);
      expect(errors.map((e) => e.category)).toEqual(['timeout', 'interrupted', 'interrupted']);
      expect(errors[1]).toBeInstanceOf(RequestCancelledError);
    });

    it('sends notifications/cancelled with the request id when the caller aborts', async () => {
      const server = await createScriptedServer();
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(server.clientSide);
      const controller = new AbortController();
      const call = client.callTool({ name: 'slow' }, { signal: controller.signal });
      await flush();
      controller.abort();
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
      await flush();
      const [request] = server.requests('tools/call');
      expect(server.notifications('notifications/cancelled').map((m) => m.params?.requestId)).toEqual([request?.id]);
    });
  });

  describe('late messages', () => {
    it('drops a response and progress that arrive after a call timed out, silently', async () => {
      const events: InspectEvent[] = [];
      const server = await createScriptedServer({ answer: (method) => (method === 'ping' ? {} : undefined) });
      const clock = new SimulatedClock();
      const client = new Client({ name: 'c', version: '1' }, { clock, defaultTimeoutMs: 500, inspect: (event) => events.push(event) });
      await client.connect(server.clientSide);
      const progress: unknown[] = [];
      const call = client.callTool({ name: 'slow' }, { onProgress: (update) => progress.push(update) });
      await flush();
      clock.advance(500);
      await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
      const [request] = server.requests('tools/call');
      const token = (request?.params?._meta as { progressToken: number }).progressToken;
      await server.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
      await server.send({ jsonrpc: '2.0', id: request?.id ?? 0, result: { content: [] } });
      await server.send({ jsonrpc: '2.0', id: request?.id ?? 0, error: { code: -32603, message: 'too late' } });
      await flush();
      expect(progress).toEqual([]);
      expect(events.filter((e) => e.type === 'diagnostic')).toEqual([]);
      expect(client.state.kind).toBe('operating');
      await expect(client.ping()).resolves.toBeTypeOf('number');
    });

    it('drops progress that arrives after a call completed', async () => {
      const server = await createScriptedServer({ answer: (method) => (method === 'tools/call' ? { content: [{ type: 'text', text: 'done' }] } : undefined) });
      const client = new Client({ name: 'c', version: '1' });
      await client.connect(server.clientSide);
      const progress: unknown[] = [];
      await expect(client.callTool({ name: 'fast' }, { onProgress: (update) => progress.push(update) })).resolves.toMatchObject({ content: [{ text: 'done' }] });
      const token = (server.requests('tools/call')[0]?.params?._meta as { progressToken: number }).progressToken;
      await server.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 5 } });
      await flush();
      expect(progress).toEqual([]);
    });
  });
});
