/**
 * Refresh tokens the authorization server does not rotate (issue 32, LOW): a token response to a
 * `refresh_token` grant without a new `refresh_token` leaves the old one valid (RFC 6749 §6), so
 * the client keeps it — in memory and in its store — and refreshes with it again next time
 * instead of sending the user through the browser again.
 */
import { Client } from '@statemcp/client';
import { InMemoryOAuthStore, OAuthClientProvider } from '@statemcp/client/auth';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startAuthorizationServer, startProtectedMcpServer } from '../src/asmixup-servers.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

describe('OAuthClientProvider with a non-rotating authorization server', () => {
  it('keeps the refresh token across refreshes that return none, in the store too', async () => {
    const as = await startAuthorizationServer({ rotateRefreshTokens: false });
    cleanups.push(() => as.close());
    const mcp = await startProtectedMcpServer(as.issuer, as.valid);
    cleanups.push(() => mcp.close());
    const store = new InMemoryOAuthStore();
    let logins = 0;
    const authProvider = new OAuthClientProvider({
      clientMetadata: { client_name: 'refresh-test', redirect_uris: ['http://127.0.0.1:1/callback'] },
      store,
      // The browser step: the test authorization server redirects at once.
      authorize: async (url) => {
        logins++;
        const response = await fetch(url, { redirect: 'manual' });
        await response.text();
        return new URL(response.headers.get('location') ?? '');
      },
    });
    const client = new Client({ name: 'refresh-test', version: '1.0.0' });
    await client.connect(new StreamableHttpClientTransport(mcp.url, { authProvider }));
    cleanups.push(() => client.close());
    expect(logins).toBe(1);
    expect((await store.getTokens(mcp.url))?.refresh_token).toBe('rt-1');

    // The access token is revoked twice; each time the client refreshes with rt-1.
    for (const round of [1, 2]) {
      as.valid.clear();
      await client.callTool({ name: 'ping', arguments: {} });
      expect((await store.getTokens(mcp.url))?.refresh_token, `after refresh ${round}`).toBe('rt-1');
    }
    const grants = as.tokenRequests().map((request) => `${request.form.get('grant_type')}${request.form.has('refresh_token') ? `:${request.form.get('refresh_token')}` : ''}`);
    expect(grants).toEqual(['authorization_code', 'refresh_token:rt-1', 'refresh_token:rt-1']);
    expect(logins).toBe(1);
  });
});
