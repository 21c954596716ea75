import { describe, expect, it } from 'vitest';
import { MAX_AUTH_ATTEMPTS, authMiddleware, type HttpAuthProvider, type HttpAuthRequest } from './auth-hook.js';

/** A `fetch` that records the headers of each call and answers with the next status. */
function recorder(statuses: number[]): { fetch: typeof fetch; calls: Headers[] } {
  const calls: Headers[] = [];
  return {
    calls,
    fetch: async (_input, init) => {
      calls.push(new Headers(init?.headers));
      return new Response('x', { status: statuses.shift() ?? 200 });
    },
  };
}

describe('authMiddleware', () => {
  it('sets the provider headers on every attempt and repeats while onResponse says so', async () => {
    let token = 0;
    const seen: { request: HttpAuthRequest; status: number; sent: string | null }[] = [];
    const provider: HttpAuthProvider = {
      headers: () => ({ authorization: `Bearer t${token}` }),
      onResponse: (request, response, sent) => {
        seen.push({ request, status: response.status, sent: sent.get('authorization') });
        if (response.status !== 401) return false;
        token++;
        return true;
      },
    };
    const base = recorder([401, 200]);
    const response = await authMiddleware(provider)(base.fetch)('https://api.example/mcp', { method: 'POST', headers: { authorization: 'Basic old', accept: 'application/json' }, body: '{}' });
    expect(response.status).toBe(200);
    expect(base.calls.map((headers) => headers.get('authorization'))).toEqual(['Bearer t0', 'Bearer t1']);
    expect(base.calls[1]?.get('accept')).toBe('application/json');
    expect(seen).toEqual([
      { request: { method: 'POST', url: 'https://api.example/mcp' }, status: 401, sent: 'Bearer t0' },
      { request: { method: 'POST', url: 'https://api.example/mcp' }, status: 200, sent: 'Bearer t1' },
    ]);
  });

  it('reports onAuthorizing from the first refusal being handled to the end of the last, not for successes', async () => {
    const events: boolean[] = [];
    let release: () => void = () => {};
    const login = new Promise<void>((resolve) => (release = resolve));
    const provider: HttpAuthProvider = {
      headers: () => ({}),
      onResponse: async (_request, response) => {
        if (response.ok) return false;
        await login;
        return true;
      },
    };
    const base = recorder([401, 401, 200, 200]);
    const authorized = authMiddleware(provider, { onAuthorizing: (active) => events.push(active) })(base.fetch);
    const first = authorized('https://api.example/mcp');
    const second = authorized('https://api.example/mcp');
    await new Promise((resolve) => setImmediate(resolve));
    expect(events).toEqual([true]);
    release();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    expect(events).toEqual([true, false]);
    expect((await authorized('https://api.example/mcp')).status).toBe(200);
    expect(events).toEqual([true, false]);
  });

  it('hands the refusal through when the provider declines', async () => {
    const base = recorder([403]);
    const response = await authMiddleware({ headers: () => ({}), onResponse: () => false })(base.fetch)('https://api.example/mcp');
    expect(response.status).toBe(403);
    expect(base.calls).toHaveLength(1);
  });

  it('bounds the attempts whatever the provider answers', async () => {
    const base = recorder(Array.from({ length: 20 }, () => 401));
    const response = await authMiddleware({ headers: () => ({}), onResponse: () => true })(base.fetch)('https://api.example/mcp');
    expect(response.status).toBe(401);
    expect(base.calls).toHaveLength(MAX_AUTH_ATTEMPTS);
  });

  it('rejects with the provider error when authorization fails', async () => {
    const base = recorder([401]);
    const failing = authMiddleware({
      headers: () => ({}),
      onResponse: () => Promise.reject(new Error('authorization refused')),
    })(base.fetch);
    await expect(failing('https://api.example/mcp')).rejects.toThrow('authorization refused');
  });
});
