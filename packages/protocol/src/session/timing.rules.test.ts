/**
 * Timeouts, cancellation and progress (MCP 2025-11-25 basic/lifecycle §Timeouts,
 * basic/utilities/cancellation, basic/utilities/progress), driven by a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import { clientWithRawServer, createPair, flush } from './test-support.js';

describe('Session timing rules', () => {
  it('each request has a timeout, from the session default or per call', async () => {
    const { client, clock, initialized } = await clientWithRawServer({ client: { defaultTimeoutMs: 5000 } });
    await initialized;
    const byDefault = client.request('tools/list');
    const perCall = client.request('tools/list', undefined, { timeoutMs: 100 });
    clock.advance(100);
    await expect(perCall).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 100 });
    clock.advance(4899);
    await flush();
    let settled = false;
    byDefault.catch(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    clock.advance(1);
    await expect(byDefault).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 5000 });
  });

  it('a timeout sends notifications/cancelled to the peer and rejects the promise', async () => {
    const pair = createPair({ client: { defaultTimeoutMs: 1000 } });
    let aborted: unknown;
    pair.server.setRequestHandler('tools/call', (_params, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => {
      aborted = ctx.signal.reason;
      reject(new Error('aborted'));
    })));
    await pair.handshake();
    const call = pair.client.request('tools/call', { name: 'slow' });
    await flush();
    pair.clock.advance(1000);
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', category: 'timeout' });
    await flush();
    expect(aborted).toMatchObject({ code: 'REQUEST_CANCELLED' });
    expect(pair.server.pendingRequests()).toHaveLength(0);
  });

  it('progress resets the timeout, and the hard maximum still fires', async () => {
    const { client, clock, peer, initialized } = await clientWithRawServer();
    await initialized;
    const updates: number[] = [];
    const call = client.request('tools/call', { name: 'x' }, { timeoutMs: 100, maxTotalTimeoutMs: 250, onProgress: (p) => updates.push(p.progress) });
    await flush();
    const request = peer.sent('tools/call')[0] as JsonObject;
    const token = ((request.params as JsonObject)._meta as JsonObject).progressToken;
    for (let i = 1; i <= 3; i++) {
      clock.advance(80);
      await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token as number, progress: i } });
      await flush();
    }
    expect(updates).toEqual([1, 2, 3]);
    clock.advance(10);
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', timeoutMs: 250 });
  });

  it('with resetTimeoutOnProgress false, progress does not extend the timeout', async () => {
    const { client, clock, peer, initialized } = await clientWithRawServer();
    await initialized;
    const call = client.request('tools/call', { name: 'x' }, { timeoutMs: 100, resetTimeoutOnProgress: false, onProgress: () => {} });
    await flush();
    const token = (((peer.sent('tools/call')[0] as JsonObject).params as JsonObject)._meta as JsonObject).progressToken as number;
    clock.advance(90);
    await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1 } });
    await flush();
    clock.advance(10);
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('an abort cancels with a notification that references the id this side sent', async () => {
    const { client, peer, initialized } = await clientWithRawServer();
    await initialized;
    const controller = new AbortController();
    const call = client.request('tools/list', undefined, { signal: controller.signal });
    await flush();
    const sentId = (peer.sent('tools/list')[0] as JsonObject).id;
    controller.abort('user pressed stop');
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED', reason: 'user pressed stop', category: 'interrupted' });
    await flush();
    expect(peer.sent('notifications/cancelled')).toEqual([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: sentId, reason: 'user pressed stop' } }]);
  });

  it('a cancel for an unknown or finished id is ignored without error', async () => {
    const pair = createPair();
    await pair.handshake();
    await pair.clientTransport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 999, reason: 'x' } });
    await pair.clientTransport.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await flush();
    expect(pair.server.state.kind).toBe('operating');
    await expect(pair.client.request('ping')).resolves.toEqual({});
  });

  it('a valid cancel aborts the handler and suppresses its reply', async () => {
    const pair = createPair();
    let finish: (() => void) | undefined;
    let signal: AbortSignal | undefined;
    pair.server.setRequestHandler('tools/call', (_p, ctx) => {
      signal = ctx.signal;
      return new Promise((resolve) => (finish = () => resolve({ content: [] })));
    });
    await pair.handshake();
    const responses: unknown[] = [];
    const original = pair.serverTransport.send.bind(pair.serverTransport);
    pair.serverTransport.send = (message) => {
      if ('result' in message || 'error' in message) responses.push(message);
      return original(message);
    };
    const controller = new AbortController();
    const call = pair.client.request('tools/call', { name: 'x' }, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await flush();
    expect(signal?.aborted).toBe(true);
    finish?.();
    await flush();
    expect(responses).toHaveLength(0);
  });

  it('a response that arrives after the local side cancelled is dropped', async () => {
    const { client, peer, initialized } = await clientWithRawServer({ client: { inspect: (e) => events.push(e.type === 'diagnostic' ? e.message : '') } });
    const events: string[] = [];
    await initialized;
    const controller = new AbortController();
    const call = client.request('tools/list', undefined, { signal: controller.signal });
    await flush();
    const id = (peer.sent('tools/list')[0] as JsonObject).id as number;
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await peer.send({ jsonrpc: '2.0', id, result: { tools: [] } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: id, progress: 5 } });
    await flush();
    expect(events.filter((m) => m.includes('unknown'))).toHaveLength(0);
    expect(client.state.kind).toBe('operating');
  });

  it('progress tokens are generated and unique among active requests', async () => {
    const { client, peer, initialized } = await clientWithRawServer();
    await initialized;
    for (let i = 0; i < 5; i++) void client.request('tools/call', { name: 'x' }, { onProgress: () => {} });
    await flush();
    const tokens = peer.sent('tools/call').map((m) => ((m.params as JsonObject)._meta as JsonObject).progressToken);
    expect(new Set(tokens).size).toBe(5);
  });

  it('the progress emitter refuses non-increasing values; message passes through', async () => {
    const pair = createPair();
    const errors: string[] = [];
    pair.server.setRequestHandler('tools/call', async (_p, ctx) => {
      await ctx.sendProgress(1, 10, 'first');
      await ctx.sendProgress(1).catch((e: Error) => errors.push(e.name));
      await ctx.sendProgress(0.5).catch((e: Error) => errors.push(e.name));
      await ctx.sendProgress(2, 10, 'second');
      return { content: [] };
    });
    await pair.handshake();
    const seen: unknown[] = [];
    await pair.client.request('tools/call', { name: 'x' }, { onProgress: (p) => seen.push(p) });
    expect(errors).toEqual(['InvalidArgumentError', 'InvalidArgumentError']);
    expect(seen).toEqual([
      { progress: 1, total: 10, message: 'first' },
      { progress: 2, total: 10, message: 'second' },
    ]);
  });

  it('no progress is emitted after the response; without a token none at all', async () => {
    const pair = createPair();
    let late: ((p: number) => Promise<void>) | undefined;
    pair.server.setRequestHandler('tools/call', (_p, ctx) => {
      late = (p) => ctx.sendProgress(p);
      return { content: [] };
    });
    await pair.handshake();
    const progress: string[] = [];
    const original = pair.serverTransport.send.bind(pair.serverTransport);
    pair.serverTransport.send = (message) => {
      if ('method' in message && message.method === 'notifications/progress') progress.push('sent');
      return original(message);
    };
    await pair.client.request('tools/call', { name: 'x' }, { onProgress: () => {} });
    await late?.(99);
    await pair.client.request('tools/call', { name: 'y' });
    await late?.(100);
    expect(progress).toEqual([]);
  });

  it('progress for an unknown token is ignored', async () => {
    const { client, peer, initialized } = await clientWithRawServer();
    await initialized;
    const seen: number[] = [];
    const call = client.request('tools/call', { name: 'x' }, { onProgress: (p) => seen.push(p.progress) });
    await flush();
    const request = peer.sent('tools/call')[0] as JsonObject;
    await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'ghost', progress: 1 } });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 12345, progress: 2 } });
    await peer.send({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
    await expect(call).resolves.toEqual({ content: [] });
    expect(seen).toEqual([]);
    expect(client.state.kind).toBe('operating');
  });

  it('timeout, cancellation and connection loss have distinct codes', async () => {
    const { client, clock, initialized } = await clientWithRawServer();
    await initialized;
    const timedOut = client.request('tools/list', undefined, { timeoutMs: 10 });
    const controller = new AbortController();
    const cancelled = client.request('tools/list', undefined, { signal: controller.signal });
    const lost = client.request('tools/list');
    clock.advance(10);
    controller.abort();
    const closing = client.close();
    const codes = await Promise.all([timedOut, cancelled, lost].map((p) => p.then(() => 'ok', (e: { code: string }) => e.code)));
    await closing;
    expect(codes).toEqual(['REQUEST_TIMEOUT', 'REQUEST_CANCELLED', 'CONNECTION_CLOSED']);
  });
});

describe('Session keep-alive', () => {
  it('pings at the configured interval and closes a connection whose peer stopped answering', async () => {
    const { client, clock, peer, initialized } = await clientWithRawServer({ client: { keepAlive: { intervalMs: 1000, timeoutMs: 200, maxFailures: 2 } } });
    await initialized;
    clock.advance(1000);
    await flush();
    const firstPing = peer.sent('ping')[0] as JsonObject;
    await peer.send({ jsonrpc: '2.0', id: firstPing.id, result: {} });
    await flush();
    expect(client.state.kind).toBe('operating');
    clock.advance(1000);
    await flush();
    clock.advance(200);
    await flush();
    expect(client.state.kind).toBe('operating');
    clock.advance(1000);
    await flush();
    clock.advance(200);
    await flush();
    expect(peer.sent('ping')).toHaveLength(3);
    await client.closed;
    expect(client.state).toMatchObject({ kind: 'terminated', reason: 'fatalError' });
  });
});

describe('Session task-augmented requests', () => {
  it('never sends notifications/cancelled for a task-augmented request', async () => {
    const { client, peer, initialized } = await clientWithRawServer({ serverCapabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } } });
    await initialized;
    const controller = new AbortController();
    const call = client.request('tools/call', { name: 'slow', task: { ttl: 1000 } }, { signal: controller.signal });
    await flush();
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    await flush();
    expect(peer.sent('notifications/cancelled')).toHaveLength(0);
  });
});

describe('diagnostics channels', () => {
  it('publishes session transitions on statemcp:session.transition', async () => {
    const { subscribe, unsubscribe } = await import('node:diagnostics_channel');
    const seen: string[] = [];
    const listener = (message: unknown) => seen.push((message as { to: string }).to);
    subscribe('statemcp:session.transition', listener);
    try {
      const pair = createPair();
      await pair.handshake();
      await pair.client.close();
    } finally {
      unsubscribe('statemcp:session.transition', listener);
    }
    expect(seen).toContain('operating');
    expect(seen).toContain('terminated');
  });
});

describe('Session task progress', () => {
  it('progress for a task keeps the original token after CreateTaskResult until the task is terminal', async () => {
    const pair = createPair({
      serverCapabilities: { tools: {}, tasks: { requests: { tools: { call: {} } } } },
    });
    let handle: { send(p: number): Promise<void>; release(): void } | undefined;
    pair.server.setRequestHandler('tools/call', (_params, ctx) => {
      handle = ctx.retainProgress();
      const now = new Date(0).toISOString();
      return { task: { taskId: 't-1', status: 'working', createdAt: now, lastUpdatedAt: now, ttl: null } };
    });
    await pair.handshake();
    const seen: number[] = [];
    const result = await pair.client.request('tools/call', { name: 'long', arguments: {}, task: {} }, { onProgress: (p) => seen.push(p.progress) });
    expect(result).toMatchObject({ task: { taskId: 't-1' } });
    await handle?.send(1);
    await handle?.send(2);
    await flush();
    expect(seen).toEqual([1, 2]);
    await expect(handle?.send(2)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const now = new Date(0).toISOString();
    await pair.server.notify('notifications/tasks/status', { taskId: 't-1', status: 'completed', createdAt: now, lastUpdatedAt: now, ttl: null });
    await handle?.send(3);
    await flush();
    expect(seen).toEqual([1, 2]);
    handle?.release();
  });
});
