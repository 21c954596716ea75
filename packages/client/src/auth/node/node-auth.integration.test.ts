import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileOAuthStore } from './file-store.js';
import { loopbackAuthorization, type LoopbackAuthorization } from './loopback.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((step) => step()));
});

describe('loopbackAuthorization', () => {
  it('listens on 127.0.0.1 and resolves with the redirect the browser brings', async () => {
    const login: LoopbackAuthorization = await loopbackAuthorization({
      // The "browser": follows the authorization URL straight to the redirect URI.
      open: async (url) => {
        const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
        redirect.searchParams.set('code', 'abc');
        redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
        const page = await fetch(redirect);
        expect(page.status).toBe(200);
        await page.text();
      },
    });
    cleanup.push(() => login.close());
    expect(login.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const authorizationUrl = new URL('https://as.example/authorize');
    authorizationUrl.searchParams.set('redirect_uri', login.redirectUri);
    authorizationUrl.searchParams.set('state', 's1');
    const callback = await login.authorize(authorizationUrl);
    expect(callback.searchParams.get('code')).toBe('abc');
    expect(callback.searchParams.get('state')).toBe('s1');
    // Nothing is waiting any more: another hit of the redirect URI is not found.
    expect((await fetch(login.redirectUri)).status).toBe(404);
  });
});

/** A private EC JWK as the provider stores it (made-up values: the store does not look inside). */
const DPOP_KEY = { kty: 'EC', crv: 'P-256', x: 'x-coordinate', y: 'y-coordinate', d: 'private-scalar' };

describe('FileOAuthStore', () => {
  it('keeps registrations and tokens in a private file across instances', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'statemcp-oauth-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'nested', 'oauth.json');
    const store = new FileOAuthStore(path);
    await expect(store.getTokens('https://mcp.example/mcp')).resolves.toBeUndefined();
    await Promise.all([
      store.setClient('https://as.example', { client_id: 'c1' }),
      store.setTokens('https://mcp.example/mcp', { access_token: 'at', token_type: 'bearer', issuer: 'https://as.example' }),
      store.setTokens('https://dpop.example/mcp', { access_token: 'bound', token_type: 'dpop', issuer: 'https://as.example', dpop_key: DPOP_KEY }),
    ]);
    const again = new FileOAuthStore(path);
    await expect(again.getClient('https://as.example')).resolves.toEqual({ client_id: 'c1' });
    await expect(again.getTokens('https://mcp.example/mcp')).resolves.toMatchObject({ access_token: 'at' });
    // The DPoP key a token is bound to is kept with it, in the same owner-only file.
    await expect(again.getTokens('https://dpop.example/mcp')).resolves.toMatchObject({ token_type: 'dpop', dpop_key: DPOP_KEY });
    await again.setTokens('https://dpop.example/mcp', undefined);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    await again.setTokens('https://mcp.example/mcp', undefined);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ clients: { 'https://as.example': { client_id: 'c1' } }, tokens: {} });
  });
});
