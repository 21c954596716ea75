/**
 * The loopback redirect listener (issue 32, LOW): a callback whose `state` is not the
 * authorization request's — a page the user visited, another tab, an attacker racing the real
 * redirect — is answered 400 and ignored; the listener settles only on the callback with the
 * right `state` (a code or an `error`), and gives up after `timeoutMs` with a typed error.
 */
import { loopbackAuthorization, type LoopbackAuthorization } from '@statemcp/client/auth/node';
import { afterEach, describe, expect, it } from 'vitest';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function authorizationUrl(redirectUri: string, state: string): URL {
  const url = new URL('https://as.example/authorize');
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  return url;
}

/** Hits the redirect URI with `params`; answers the status. */
async function hit(redirectUri: string, params: Record<string, string>): Promise<number> {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await fetch(url);
  await response.text();
  return response.status;
}

async function listen(open: (url: URL) => Promise<void>, timeoutMs?: number): Promise<LoopbackAuthorization> {
  const login = await loopbackAuthorization({ open, ...(timeoutMs !== undefined && { timeoutMs }) });
  cleanups.push(() => login.close());
  return login;
}

describe('loopbackAuthorization', () => {
  it('answers 400 to callbacks with another state or none and settles on the matching one', async () => {
    const statuses: number[] = [];
    const login = await listen(async (url) => {
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      statuses.push(await hit(redirectUri, { code: 'attacker-code', state: 'forged' }));
      statuses.push(await hit(redirectUri, { code: 'attacker-code' }));
      statuses.push(await hit(redirectUri, { error: 'access_denied', state: 'forged' }));
      statuses.push(await hit(redirectUri, { code: 'real-code', state: url.searchParams.get('state') ?? '' }));
    });
    const callback = await login.authorize(authorizationUrl(login.redirectUri, 'state-123'));
    expect(statuses).toEqual([400, 400, 400, 200]);
    expect(callback.searchParams.get('code')).toBe('real-code');
    expect(callback.searchParams.get('state')).toBe('state-123');
  });

  it('settles on an error callback carrying the right state', async () => {
    const login = await listen(async (url) => {
      await hit(url.searchParams.get('redirect_uri') ?? '', { error: 'access_denied', state: url.searchParams.get('state') ?? '' });
    });
    const callback = await login.authorize(authorizationUrl(login.redirectUri, 'state-err'));
    expect(callback.searchParams.get('error')).toBe('access_denied');
  });

  it('gives up after timeoutMs with a typed timeout error when only wrong callbacks came', async () => {
    let forged = 0;
    const login = await listen(async (url) => {
      forged = await hit(url.searchParams.get('redirect_uri') ?? '', { code: 'x', state: 'forged' });
    }, 200);
    await expect(login.authorize(authorizationUrl(login.redirectUri, 'state-slow'))).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT', category: 'timeout' });
    expect(forged).toBe(400);
  });
});
