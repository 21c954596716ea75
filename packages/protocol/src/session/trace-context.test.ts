import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import type { TraceContext } from '../observability/trace-context.js';
import { createPair, flush, serverWithRawClient } from './test-support.js';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const OTHER = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

/** A pair whose server records the `_meta` and `traceContext` of each `tools/call`. */
function tracedPair(options: Parameters<typeof createPair>[0] = {}) {
  const pair = createPair(options);
  const seen: Array<{ meta: JsonObject | undefined; trace: TraceContext | undefined }> = [];
  pair.server.setRequestHandler('tools/call', (_params, ctx) => {
    seen.push({ meta: ctx.meta, trace: ctx.traceContext });
    return { content: [] };
  });
  return { ...pair, seen };
}

describe('Session trace context', () => {
  it('sends the call option in _meta and exposes it to the handler', async () => {
    const pair = tracedPair();
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x', _meta: { custom: 1 } }, { traceContext: { traceparent: PARENT, tracestate: 'congo=x', baggage: 'tenant=acme' } });
    expect(pair.seen).toEqual([
      { meta: { custom: 1, traceparent: PARENT, tracestate: 'congo=x', baggage: 'tenant=acme' }, trace: { traceparent: PARENT, tracestate: 'congo=x', baggage: 'tenant=acme' } },
    ]);
  });

  it('asks the session provider, with the method, when the call gives none; the call option wins', async () => {
    const asked: string[] = [];
    const pair = tracedPair({
      client: {
        traceContext: ({ method }) => {
          asked.push(method);
          return { traceparent: PARENT };
        },
      },
    });
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x' });
    await pair.client.request('tools/call', { name: 'x' }, { traceContext: { traceparent: OTHER } });
    expect(pair.seen.map((s) => s.trace?.traceparent)).toEqual([PARENT, OTHER]);
    expect(asked).toContain('tools/call');
    expect(asked).toContain('initialize');
  });

  it('drops an invalid traceparent (and its tracestate) instead of sending it, keeping the rest of _meta', async () => {
    const out: JsonObject[] = [];
    const pair = tracedPair({ client: { inspect: (event) => event.type === 'message.out' && out.push(event.message as unknown as JsonObject) } });
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x', _meta: { traceparent: 'forged', tracestate: 'congo=x', keep: true } });
    await pair.client.request('tools/call', { name: 'x' }, { traceContext: { traceparent: 'not-a-trace', baggage: 'a=b' } });
    expect(pair.seen).toEqual([
      { meta: { keep: true }, trace: undefined },
      { meta: { baggage: 'a=b' }, trace: { baggage: 'a=b' } },
    ]);
    expect(JSON.stringify(out)).not.toContain('forged');
    expect(JSON.stringify(out)).not.toContain('not-a-trace');
  });

  it('a provider that throws sends no trace context and is reported as a diagnostic', async () => {
    const diagnostics: string[] = [];
    const pair = tracedPair({
      client: {
        traceContext: () => {
          throw new Error('no tracer');
        },
        inspect: (event) => event.type === 'diagnostic' && diagnostics.push(event.message),
      },
    });
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x' });
    expect(pair.seen).toEqual([{ meta: undefined, trace: undefined }]);
    expect(diagnostics.some((message) => message.includes('traceContext provider threw'))).toBe(true);
  });

  it('validates what a peer sends: a handler sees only the valid part, ctx.meta stays raw', async () => {
    const { server, peer, initialize } = await serverWithRawClient();
    const seen: Array<{ meta: JsonObject | undefined; trace: TraceContext | undefined }> = [];
    server.setRequestHandler('tools/call', (_params, ctx) => (seen.push({ meta: ctx.meta, trace: ctx.traceContext }), { content: [] }));
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: { traceparent: PARENT, tracestate: 'Bad State', baggage: 'a=b' } } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', _meta: { traceparent: 'ff-zz', tracestate: 'congo=x' } } });
    await flush();
    expect(seen).toEqual([
      { meta: { traceparent: PARENT, tracestate: 'Bad State', baggage: 'a=b' }, trace: { traceparent: PARENT, baggage: 'a=b' } },
      { meta: { traceparent: 'ff-zz', tracestate: 'congo=x' }, trace: undefined },
    ]);
  });

  it('carries the trace context of the request being handled into requests made from its handler', async () => {
    const pair = createPair();
    const sampled: Array<TraceContext | undefined> = [];
    pair.client.setRequestHandler('sampling/createMessage', (_params, ctx) => {
      sampled.push(ctx.traceContext);
      return { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' };
    });
    pair.server.setRequestHandler('tools/call', async (_params, ctx) => {
      await ctx.sendRequest('sampling/createMessage', { messages: [], maxTokens: 1 });
      await ctx.sendRequest('sampling/createMessage', { messages: [], maxTokens: 1 }, { traceContext: { traceparent: OTHER } });
      return { content: [] };
    });
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x' }, { traceContext: { traceparent: PARENT, baggage: 'a=b' } });
    expect(sampled).toEqual([{ traceparent: PARENT, baggage: 'a=b' }, { traceparent: OTHER }]);
  });

  it('shows the trace context on every request.transition event of the request, both sides', async () => {
    const clientEvents: InspectEvent[] = [];
    const serverEvents: InspectEvent[] = [];
    const pair = tracedPair({ client: { inspect: (e) => clientEvents.push(e) }, server: { inspect: (e) => serverEvents.push(e) } });
    await pair.handshake();
    await pair.client.request('tools/call', { name: 'x' }, { traceContext: { traceparent: PARENT } });
    await pair.client.request('tools/call', { name: 'untraced' });
    await flush();
    type RequestEvent = Extract<InspectEvent, { type: 'request.transition' }>;
    const calls = (events: InspectEvent[]): RequestEvent[] => events.filter((e): e is RequestEvent => e.type === 'request.transition' && e.method === 'tools/call');
    const traced = (events: InspectEvent[]): RequestEvent[] => calls(events).filter((e) => e.requestId === calls(events)[0]?.requestId);
    for (const events of [clientEvents, serverEvents]) {
      expect(traced(events).length).toBeGreaterThanOrEqual(2);
      expect(traced(events).every((e) => e.trace?.traceparent === PARENT)).toBe(true);
      expect(calls(events).filter((e) => e.trace === undefined).length).toBeGreaterThanOrEqual(2);
    }
  });
});
