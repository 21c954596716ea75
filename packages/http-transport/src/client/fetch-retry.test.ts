import { SimulatedClock } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { withFetchMiddleware } from './fetch-middleware.js';
import { parseRetryAfter, retryMiddleware, type RetryInfo, type RetryMiddlewareOptions } from './fetch-retry.js';

type Outcome = { status: number; headers?: Record<string, string> } | { error: Error };

/** A fake `fetch` that plays `outcomes` in order (the last one repeats) and counts attempts. */
function scripted(...outcomes: Outcome[]) {
  const attempts: Array<{ method: string; body: unknown }> = [];
  const base: typeof fetch = async (input, init) => {
    const body = input instanceof Request ? await input.text() : init?.body;
    attempts.push({ method: init?.method ?? (input instanceof Request ? input.method : 'GET'), body });
    const outcome = outcomes[Math.min(attempts.length - 1, outcomes.length - 1)];
    if (outcome === undefined) throw new Error('no outcome scripted');
    if ('error' in outcome) throw outcome.error;
    return new Response(outcome.status === 204 ? null : `status ${outcome.status}`, { status: outcome.status, headers: outcome.headers ?? {} });
  };
  return { base, attempts };
}

/** `fetch failed` whose cause carries a Node error code, as undici and nodeHttpFetch throw. */
function networkError(code: string): Error {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });
}

/** Lets the middleware reach its next wait. */
async function flush(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

function setup(outcomes: Outcome[], options: RetryMiddlewareOptions = {}) {
  const clock = new SimulatedClock();
  const retries: RetryInfo[] = [];
  const { base, attempts } = scripted(...outcomes);
  const fetch = withFetchMiddleware(base, retryMiddleware({ clock, random: () => 0, onRetry: (info) => retries.push(info), ...options }));
  return { clock, fetch, attempts, retries };
}

describe('retryMiddleware', () => {
  it('retries a GET on a network error with exponential backoff on the clock', async () => {
    const { clock, fetch, attempts, retries } = setup([{ error: networkError('ECONNRESET') }, { error: networkError('ECONNRESET') }, { status: 200 }], {
      initialDelayMs: 100,
    });
    const pending = fetch('http://127.0.0.1/mcp');
    await flush();
    expect(attempts).toHaveLength(1);
    clock.advance(99);
    await flush();
    expect(attempts).toHaveLength(1);
    clock.advance(1);
    await flush();
    expect(attempts).toHaveLength(2);
    clock.advance(200);
    await flush();
    expect((await pending).status).toBe(200);
    expect(attempts).toHaveLength(3);
    expect(retries.map((r) => [r.retry, r.delayMs, r.error?.message])).toEqual([
      [1, 100, 'fetch failed'],
      [2, 200, 'fetch failed'],
    ]);
  });

  it('jitters each wait within [delay × (1 − jitter), delay] and caps it at maxDelayMs', async () => {
    const { clock, fetch, retries } = setup([{ status: 502 }, { status: 502 }, { status: 502 }, { status: 200 }], {
      initialDelayMs: 100,
      maxDelayMs: 300,
      maxRetries: 3,
      jitter: 0.5,
      random: () => 0.5,
    });
    const pending = fetch('http://127.0.0.1/mcp');
    for (let i = 0; i < 3; i++) {
      await flush();
      clock.advance(1_000);
    }
    expect((await pending).status).toBe(200);
    expect(retries.map((r) => r.delayMs)).toEqual([75, 150, 225]);
  });

  it('gives up after maxRetries and returns the last response', async () => {
    const { clock, fetch, attempts } = setup([{ status: 503 }], { maxRetries: 2 });
    const pending = fetch('http://127.0.0.1/mcp');
    for (let i = 0; i < 5; i++) {
      await flush();
      clock.advance(60_000);
    }
    expect((await pending).status).toBe(503);
    expect(attempts).toHaveLength(3);
  });

  it('throws the last error once the retries are spent', async () => {
    const { clock, fetch, attempts } = setup([{ error: networkError('ECONNREFUSED') }], { maxRetries: 1 });
    const pending = fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' });
    const outcome = pending.catch((error: unknown) => error);
    await flush();
    clock.advance(60_000);
    await flush();
    expect(await outcome).toMatchObject({ message: 'fetch failed' });
    expect(attempts).toHaveLength(2);
  });

  describe('for a POST (not idempotent)', () => {
    it('retries when no connection was made, sending the same body again', async () => {
      const { clock, fetch, attempts } = setup([{ error: networkError('ECONNREFUSED') }, { status: 200 }]);
      const pending = fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
      await flush();
      clock.advance(500);
      expect((await pending).status).toBe(200);
      expect(attempts.map((a) => a.body)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}', '{"jsonrpc":"2.0","id":1,"method":"ping"}']);
    });

    it('does not re-send after an error that may have reached the server', async () => {
      const { fetch, attempts } = setup([{ error: networkError('ECONNRESET') }, { status: 200 }]);
      await expect(fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' })).rejects.toThrow('fetch failed');
      expect(attempts).toHaveLength(1);
    });

    it.each([502, 504, 408, 429, 503])('returns a %i without Retry-After as is', async (status) => {
      const { fetch, attempts } = setup([{ status }, { status: 200 }]);
      expect((await fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' })).status).toBe(status);
      expect(attempts).toHaveLength(1);
    });

    it('retries a 429 or 503 that names a wait, after exactly that wait', async () => {
      const { clock, fetch, attempts, retries } = setup([{ status: 429, headers: { 'retry-after': '2' } }, { status: 503, headers: { 'retry-after': '1' } }, { status: 200 }]);
      const pending = fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' });
      await flush();
      clock.advance(1_999);
      await flush();
      expect(attempts).toHaveLength(1);
      clock.advance(1);
      await flush();
      expect(attempts).toHaveLength(2);
      clock.advance(1_000);
      expect((await pending).status).toBe(200);
      expect(retries.map((r) => [r.status, r.delayMs])).toEqual([
        [429, 2_000],
        [503, 1_000],
      ]);
    });

    it('returns the response when Retry-After is longer than maxRetryAfterMs', async () => {
      const { fetch, attempts } = setup([{ status: 503, headers: { 'retry-after': '120' } }], { maxRetryAfterMs: 60_000 });
      expect((await fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' })).status).toBe(503);
      expect(attempts).toHaveLength(1);
    });

    it('retries like a GET when the caller opts in with retryNonIdempotent', async () => {
      const { clock, fetch, attempts } = setup([{ error: networkError('ECONNRESET') }, { status: 502 }, { status: 200 }], { retryNonIdempotent: true });
      const pending = fetch('http://127.0.0.1/mcp', { method: 'POST', body: '{}' });
      for (let i = 0; i < 2; i++) {
        await flush();
        clock.advance(10_000);
      }
      expect((await pending).status).toBe(200);
      expect(attempts).toHaveLength(3);
    });

    it('replays a Request input by cloning it', async () => {
      const { clock, fetch, attempts } = setup([{ error: networkError('ENOTFOUND') }, { status: 200 }]);
      const pending = fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', body: 'payload' }));
      await flush();
      clock.advance(500);
      expect((await pending).status).toBe(200);
      expect(attempts.map((a) => [a.method, a.body])).toEqual([
        ['POST', 'payload'],
        ['POST', 'payload'],
      ]);
    });
  });

  it('never retries a body that cannot be replayed (a stream)', async () => {
    const { fetch, attempts } = setup([{ status: 503, headers: { 'retry-after': '0' } }, { status: 200 }]);
    const body = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    expect((await fetch('http://127.0.0.1/mcp', { method: 'PUT', body })).status).toBe(503);
    expect(attempts).toHaveLength(1);
  });

  it('does not retry a 4xx other than 408 and 429, nor a 500', async () => {
    for (const status of [400, 401, 404, 500]) {
      const { fetch, attempts } = setup([{ status }, { status: 200 }]);
      expect((await fetch('http://127.0.0.1/mcp')).status).toBe(status);
      expect(attempts).toHaveLength(1);
    }
  });

  it('does not retry an aborted call, and the signal ends a wait at once', async () => {
    const aborted = setup([{ error: new DOMException('aborted', 'AbortError') }, { status: 200 }]);
    await expect(aborted.fetch('http://127.0.0.1/mcp')).rejects.toMatchObject({ name: 'AbortError' });
    expect(aborted.attempts).toHaveLength(1);

    const { clock, fetch, attempts } = setup([{ status: 503 }, { status: 200 }]);
    const controller = new AbortController();
    const pending = fetch('http://127.0.0.1/mcp', { signal: controller.signal });
    await flush();
    expect(clock.pendingTimers).toBe(1);
    controller.abort(new Error('caller gave up'));
    await expect(pending).rejects.toThrow('caller gave up');
    expect(clock.pendingTimers).toBe(0);
    expect(attempts).toHaveLength(1);
  });

  it('refuses nonsensical options', () => {
    expect(() => retryMiddleware({ maxRetries: -1 })).toThrow(RangeError);
    expect(() => retryMiddleware({ jitter: 2 })).toThrow(RangeError);
    expect(() => retryMiddleware({ initialDelayMs: 100, maxDelayMs: 10 })).toThrow(RangeError);
    expect(() => retryMiddleware({ factor: 0.5 })).toThrow(RangeError);
  });
});

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates; a past date means no wait', () => {
    const now = () => Date.parse('Wed, 25 Nov 2026 12:00:00 GMT');
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Wed, 25 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 25 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});
