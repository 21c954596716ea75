import { describe, expect, it } from 'vitest';
import { PrincipalCounter, admissionRefusal, openCountedStream, principalLimit } from './principal-limits.js';
import { SseConnection } from './sse-connection.js';

describe('PrincipalCounter', () => {
  it('counts each principal against the limit and never counts anonymous holders', () => {
    const counter = new PrincipalCounter(2);
    expect([counter.tryAcquire('alice'), counter.tryAcquire('alice'), counter.tryAcquire('alice')]).toEqual([true, true, false]);
    expect(counter.tryAcquire('bob')).toBe(true);
    counter.release('alice');
    expect(counter.heldBy('alice')).toBe(1);
    expect(counter.tryAcquire(undefined)).toBe(true);
    expect(() => principalLimit('maxEventStreamsPerPrincipal', 1.5)).toThrow(RangeError);
  });
});

describe('openCountedStream', () => {
  it('counts an open stream until it ends, whoever ends it, and refuses the principal beyond its limit with 429', async () => {
    const streams = new PrincipalCounter(1);
    const first = new SseConnection();
    expect(await openCountedStream(streams, 'alice', () => first)).toBe(first);
    const refused = await openCountedStream(streams, 'alice', () => new SseConnection());
    expect(refused).toBeInstanceOf(Response);
    const response = refused as Response;
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('maxEventStreamsPerPrincipal');
    first.close();
    expect(streams.heldBy('alice')).toBe(0);
  });

  it('counts nothing for a refusal, a stream that already ended, or a failure', async () => {
    const streams = new PrincipalCounter(1);
    await openCountedStream(streams, 'alice', () => new Response(null, { status: 409 }));
    const ended = new SseConnection();
    ended.close();
    await openCountedStream(streams, 'alice', () => ended);
    await expect(
      openCountedStream(streams, 'alice', () => {
        throw new Error('store down');
      }),
    ).rejects.toThrow('store down');
    expect(streams.heldBy('alice')).toBe(0);
  });
});

describe('admissionRefusal', () => {
  it('answers 503 when the server is full and 429 naming the limit when the principal is', async () => {
    expect(admissionRefusal('reserved', 3)).toBeUndefined();
    expect(admissionRefusal('maxSessions', 3)?.status).toBe(503);
    const principalFull = admissionRefusal('maxSessionsPerPrincipal', 3);
    expect(principalFull?.status).toBe(429);
    expect(await principalFull?.text()).toContain('3 sessions');
  });
});
