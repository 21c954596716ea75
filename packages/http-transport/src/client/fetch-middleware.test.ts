import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { headersMiddleware, loggingMiddleware, withFetchMiddleware, type FetchLogEntry, type FetchMiddleware } from './fetch-middleware.js';

/** A fake `fetch` that records what it was called with and answers `status`. */
function recordingBase(status = 200) {
  const calls: Array<{ url: string; method: string; headers: Record<string, string> }> = [];
  const base: typeof fetch = async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value;
    });
    calls.push({ url: input instanceof Request ? input.url : input instanceof URL ? input.href : input, method: init?.method ?? 'GET', headers });
    return new Response('ok', { status });
  };
  return { base, calls };
}

describe('withFetchMiddleware', () => {
  it('runs the middlewares outermost first and returns the base response', async () => {
    const order: string[] = [];
    const tag =
      (name: string): FetchMiddleware =>
      (next) =>
      async (input, init) => {
        order.push(`${name}>`);
        const response = await next(input, init);
        order.push(`<${name}`);
        return response;
      };
    const { base, calls } = recordingBase();
    const fetch = withFetchMiddleware(base, tag('a'), tag('b'));
    const response = await fetch('http://127.0.0.1/mcp', { method: 'POST' });
    expect(await response.text()).toBe('ok');
    expect(order).toEqual(['a>', 'b>', '<b', '<a']);
    expect(calls).toHaveLength(1);
  });

  it('is the base itself without middlewares', () => {
    const { base } = recordingBase();
    expect(withFetchMiddleware(base)).toBe(base);
  });
});

describe('headersMiddleware', () => {
  it('adds static headers without replacing the ones the request already has', async () => {
    const { base, calls } = recordingBase();
    const fetch = withFetchMiddleware(base, headersMiddleware({ 'x-tenant': 'acme', 'mcp-session-id': 'forged' }));
    await fetch('http://127.0.0.1/mcp', { method: 'POST', headers: { 'mcp-session-id': 'real', accept: 'application/json' } });
    expect(calls[0]?.headers).toEqual({ 'x-tenant': 'acme', 'mcp-session-id': 'real', accept: 'application/json' });
  });

  it('calls a header function before every request', async () => {
    const { base, calls } = recordingBase();
    let token = 0;
    const fetch = withFetchMiddleware(base, headersMiddleware(async () => ({ authorization: `Bearer t${++token}` })));
    await fetch('http://127.0.0.1/mcp');
    await fetch('http://127.0.0.1/mcp');
    expect(calls.map((call) => call.headers.authorization)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('keeps the headers of a Request input', async () => {
    const { base, calls } = recordingBase();
    const fetch = withFetchMiddleware(base, headersMiddleware({ 'x-extra': '1' }));
    await fetch(new Request('http://127.0.0.1/mcp', { headers: { 'x-own': '2' } }));
    expect(calls[0]?.headers).toEqual({ 'x-own': '2', 'x-extra': '1' });
  });
});

describe('loggingMiddleware', () => {
  it('reports method, URL, status and duration on the given clock', async () => {
    const clock = new SimulatedClock(1_000);
    const entries: FetchLogEntry[] = [];
    const slow: typeof fetch = async () => {
      clock.advance(25);
      return new Response(null, { status: 202 });
    };
    const fetch = withFetchMiddleware(slow, loggingMiddleware((entry) => entries.push(entry), { clock }));
    await fetch(new URL('http://127.0.0.1/mcp'), { method: 'post' });
    expect(entries).toEqual([{ method: 'POST', url: 'http://127.0.0.1/mcp', status: 202, durationMs: 25 }]);
  });

  it('reports a failed call with its error and rethrows it; a throwing logger breaks nothing', async () => {
    const failing: typeof fetch = async () => {
      throw new TypeError('fetch failed');
    };
    const entries: FetchLogEntry[] = [];
    const fetch = withFetchMiddleware(
      failing,
      loggingMiddleware(() => {
        throw new Error('logger broke');
      }),
      loggingMiddleware((entry) => entries.push(entry), { clock: new SimulatedClock() }),
    );
    await expect(fetch('http://127.0.0.1/mcp')).rejects.toThrow('fetch failed');
    expect(entries).toEqual([{ method: 'GET', url: 'http://127.0.0.1/mcp', durationMs: 0, error: expect.objectContaining({ message: 'fetch failed' }) }]);
  });
});
