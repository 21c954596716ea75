import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, JsonRpcError, RequestCancelledError, RequestTimeoutError } from '../errors/errors.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import { inputRequestContext } from './input-rounds.js';
import { MiddlewareStack, type Middleware, type MiddlewareContext } from './middleware.js';
import { createPair, flush } from './test-support.js';

/** A pair whose sessions each run `stack`s of their own, with `tools/call` answered by the server. */
async function pairWith(server: MiddlewareStack, client: MiddlewareStack = new MiddlewareStack(), inspect?: (event: InspectEvent) => void) {
  const pair = createPair({ server: { middleware: server, ...(inspect === undefined ? {} : { inspect }) }, client: { middleware: client } });
  pair.server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String(params.name) }] }));
  await pair.handshake();
  return pair;
}

/** A middleware that records `label:before` / `label:after` around `next()`. */
function recording(log: string[], label: string): Middleware {
  return async (context, next) => {
    log.push(`${label}:before:${context.method}`);
    const result = await next();
    log.push(`${label}:after:${context.method}`);
    return result;
  };
}

describe('MiddlewareStack', () => {
  describe('#for', () => {
    it('returns the middleware of a method outermost first, filtered by method', () => {
      const a: Middleware = (_c, next) => next();
      const b: Middleware = (_c, next) => next();
      const stack = new MiddlewareStack().use(a).use('tools/call', b);
      expect(stack.for('tools/call')).toEqual([a, b]);
      expect(stack.for('prompts/get')).toEqual([a]);
      expect(stack.size).toBe(2);
    });

    it('returns one shared empty list when nothing is registered', () => {
      const stack = new MiddlewareStack();
      expect(stack.for('tools/call')).toBe(stack.for('ping'));
      expect(stack.for('tools/call')).toHaveLength(0);
    });

    it('refuses a registration without a function or with an empty method list', () => {
      const stack = new MiddlewareStack();
      expect(() => stack.use([], (_c, next) => next())).toThrow(InvalidArgumentError);
      expect(() => stack.use('tools/call', undefined as unknown as Middleware)).toThrow(InvalidArgumentError);
    });
  });
});

describe('Session middleware', () => {
  it('runs inbound and outbound middleware as an onion in registration order', async () => {
    const log: string[] = [];
    const server = new MiddlewareStack().use(recording(log, 's1')).use(recording(log, 's2'));
    const client = new MiddlewareStack().use('tools/call', recording(log, 'c1'));
    const pair = await pairWith(server, client);
    log.length = 0;
    const result = await pair.client.request('tools/call', { name: 'echo', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'echo' }]);
    expect(log).toEqual(['c1:before:tools/call', 's1:before:tools/call', 's2:before:tools/call', 's2:after:tools/call', 's1:after:tools/call', 'c1:after:tools/call']);
  });

  it('gives inbound middleware a context with the method, params, id, era, state and signal', async () => {
    const seen: MiddlewareContext[] = [];
    const states: unknown[] = [];
    const server = new MiddlewareStack().use((context, next) => {
      seen.push(context);
      if (context.kind === 'request') states.push(context.state, context.signal.aborted);
      return next();
    });
    const pair = await pairWith(server);
    await pair.client.request('tools/call', { name: 'x', arguments: {} });
    const context = seen.find((c) => c.method === 'tools/call');
    expect(context).toMatchObject({ kind: 'request', direction: 'inbound', method: 'tools/call', params: { name: 'x', arguments: {} }, era: 'legacy', protocolVersion: pair.client.protocolVersion, sessionId: pair.server.id });
    expect(context?.kind === 'request' ? typeof context.id : undefined).toBe('number');
    expect(states).toContain('processing');
    expect(seen.map((c) => c.method)).toContain('notifications/initialized');
  });

  it('replaces the result, and short-circuits with a result without reaching the handler', async () => {
    let handled = 0;
    const server = new MiddlewareStack()
      .use('tools/call', async (_c, next) => ({ ...(await next()), extra: true }))
      .use('tools/call', (context) => (context.params.name === 'cached' ? { content: [{ type: 'text', text: 'from cache' }] } : Promise.reject(new Error('unreachable'))));
    const pair = createPair({ server: { middleware: server } });
    pair.server.setRequestHandler('tools/call', () => {
      handled++;
      return { content: [] };
    });
    await pair.handshake();
    const result = await pair.client.request('tools/call', { name: 'cached', arguments: {} });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'from cache' }], extra: true });
    expect(handled).toBe(0);
  });

  it('answers a typed error thrown by a middleware as that error, and anything else as -32603, for that request only', async () => {
    const server = new MiddlewareStack().use('tools/call', (context, next) => {
      if (context.params.name === 'denied') throw new JsonRpcError(-32001, 'Denied', { reason: 'policy' });
      if (context.params.name === 'broken') throw new TypeError('middleware bug');
      return next();
    });
    const pair = await pairWith(server);
    const denied = pair.client.request('tools/call', { name: 'denied', arguments: {} });
    const broken = pair.client.request('tools/call', { name: 'broken', arguments: {} });
    const fine = pair.client.request('tools/call', { name: 'fine', arguments: {} });
    await expect(denied).rejects.toMatchObject({ code: -32001, message: 'Denied', data: { reason: 'policy' } });
    await expect(broken).rejects.toMatchObject({ code: -32603, message: 'middleware bug' });
    await expect(fine).resolves.toMatchObject({ content: [{ type: 'text', text: 'fine' }] });
    expect(pair.server.state.kind).toBe('operating');
  });

  it('aborts the signal of a middleware waiting when the peer cancels, and sends no reply', async () => {
    let signal: AbortSignal | undefined;
    const events: InspectEvent[] = [];
    const server = new MiddlewareStack().use('tools/call', (context) => {
      if (context.kind === 'request') signal = context.signal;
      return new Promise<JsonObject>(() => undefined); // waits until cancelled
    });
    const pair = await pairWith(server, undefined, (event) => events.push(event));
    const controller = new AbortController();
    const call = pair.client.request('tools/call', { name: 'slow', arguments: {} }, { signal: controller.signal });
    await flush();
    expect(pair.server.pendingRequests().map((r) => r.method)).toEqual(['tools/call']);
    controller.abort('user gave up');
    await expect(call).rejects.toBeInstanceOf(RequestCancelledError);
    await flush();
    expect(signal?.aborted).toBe(true);
    expect(pair.server.pendingRequests()).toEqual([]);
    const states = events.filter((e) => e.type === 'request.transition' && e.method === 'tools/call').map((e) => (e.type === 'request.transition' ? e.to : ''));
    expect(states).toContain('cancelled');
  });

  it('answers an input request (a task\'s inputRequests entry) through the middleware and the handler of its method', async () => {
    const log: string[] = [];
    const pair = await pairWith(new MiddlewareStack(), new MiddlewareStack().use(recording(log, 'client')));
    pair.client.setRequestHandler('elicitation/create', () => ({ action: 'decline' }));
    log.length = 0; // the handshake went through it too
    const context = inputRequestContext('task-1/input-1', 'elicitation/create', '2026-07-28', new AbortController().signal);
    await expect(pair.client.answerInput('elicitation/create', { message: 'Sure?' }, context)).resolves.toEqual({ action: 'decline' });
    expect(log).toEqual(['client:before:elicitation/create', 'client:after:elicitation/create']);
  });

  it('runs an outbound request inside its ledger record: its timeout counts the middleware time', async () => {
    const client = new MiddlewareStack().use('tools/call', (context, next) => {
      if (context.kind !== 'request') return next();
      // Waits for its own signal before sending: the request's timeout ends the wait.
      return new Promise<JsonObject>((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('never sent'))));
    });
    const pair = await pairWith(new MiddlewareStack(), client);
    const call = pair.client.request('tools/call', { name: 'x', arguments: {} }, { timeoutMs: 1000 });
    await flush();
    expect(pair.client.pendingRequests().map((r) => [r.method, r.state])).toEqual([['tools/call', 'created']]);
    pair.clock.advance(1000);
    await expect(call).rejects.toBeInstanceOf(RequestTimeoutError);
    expect(pair.client.pendingRequests()).toEqual([]);
  });

  it('settles an outbound request a middleware answers itself, never writing it', async () => {
    let written = 0;
    const client = new MiddlewareStack().use('tools/call', () => ({ content: [{ type: 'text', text: 'local' }] }));
    const pair = await pairWith(new MiddlewareStack().use('tools/call', (_c, next) => (written++, next())), client);
    await expect(pair.client.request('tools/call', { name: 'x', arguments: {} })).resolves.toMatchObject({ content: [{ type: 'text', text: 'local' }] });
    expect(written).toBe(0);
    expect(pair.client.pendingRequests()).toEqual([]);
  });

  it('carries the trace context an outbound middleware propagates', async () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const client = new MiddlewareStack().use('tools/call', (context, next) => {
      if (context.kind === 'request') context.propagate({ traceparent });
      return next();
    });
    const pair = await pairWith(new MiddlewareStack(), client);
    let received: unknown;
    pair.server.setRequestHandler('tools/call', (_params, context) => {
      received = context.traceContext;
      return { content: [] };
    });
    await pair.client.request('tools/call', { name: 'x', arguments: {} });
    expect(received).toEqual({ traceparent });
  });

  it('wraps notifications both ways; one a middleware does not pass on is dropped', async () => {
    const log: string[] = [];
    const server = new MiddlewareStack().use((context, next) => {
      if (context.kind === 'notification') log.push(`server:${context.direction}:${context.method}`);
      return context.method === 'notifications/roots/list_changed' ? {} : next();
    });
    const pair = await pairWith(server);
    let delivered = 0;
    pair.server.setNotificationHandler('notifications/roots/list_changed', () => {
      delivered++;
    });
    await pair.client.notify('notifications/roots/list_changed');
    await pair.server.notify('notifications/message', { level: 'info', data: 'hi' });
    await flush();
    expect(log).toContain('server:inbound:notifications/roots/list_changed');
    expect(log).toContain('server:outbound:notifications/message');
    expect(delivered).toBe(0);
  });

  it('refuses a second next() call from the same middleware', async () => {
    const server = new MiddlewareStack().use('tools/call', async (_c, next) => {
      await next();
      return next();
    });
    const pair = await pairWith(server);
    await expect(pair.client.request('tools/call', { name: 'x', arguments: {} })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/next\(\) twice/) });
  });
});
