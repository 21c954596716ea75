/**
 * Token introspection (issue 32, medium): an answer that states no audience is refused by
 * default (RFC 8707: a token for another resource of the same authorization server must not
 * pass), the issuer is checked whenever the verifier knows it (absent `iss` refused too), a
 * slow endpoint turns into a 503 within the timeout instead of a hang, and answers are cached
 * briefly — never past the token's `exp`.
 */
import { AuthorizationServerUnavailableError, createProtectedResource, introspectionVerifier, type IntrospectionVerifierOptions } from '@statemcp/http-transport/auth';
import { afterEach, describe, expect, it } from 'vitest';
import { RESOURCE_CLIENT, startIntrospectionEndpoint, type IntrospectionEndpoint } from '../src/introspection-endpoint.js';
import { ISSUER, postInitialize, serveProtected } from '../src/serverauth-issuer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An introspection endpoint and a protected resource verifying through it. */
async function setup(
  options: Partial<IntrospectionVerifierOptions> = {},
): Promise<{ endpoint: IntrospectionEndpoint; url: string; errors: unknown[]; call: (token: string) => ReturnType<typeof postInitialize> }> {
  const endpoint = await startIntrospectionEndpoint();
  cleanups.push(endpoint.close);
  const errors: unknown[] = [];
  const server = await serveProtected(
    (url) =>
      createProtectedResource({
        resource: url,
        authorizationServers: [ISSUER],
        verifier: introspectionVerifier({
          endpoint: endpoint.url,
          clientId: RESOURCE_CLIENT.id,
          clientSecret: RESOURCE_CLIENT.secret,
          audience: url,
          issuer: ISSUER,
          ...options,
        }),
      }),
    { onError: (error) => errors.push(error) },
  );
  cleanups.push(server.close);
  return { endpoint, url: server.url, errors, call: (token) => postInitialize(server.url, { authorization: `Bearer ${token}` }) };
}

const inAnHour = (): number => Math.floor(Date.now() / 1000) + 3600;

describe('introspectionVerifier', () => {
  it('refuses by default an active token whose answer names no audience (a token for another resource)', async () => {
    const { endpoint, url, call } = await setup();
    endpoint.answer('for-another-resource', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, exp: inAnHour() });
    const refused = await call('for-another-resource');
    expect(refused.status, 'a token without aud must be refused by default').toBe(401);
    expect(refused.challenge).toContain('error="invalid_token"');
    endpoint.answer('for-this-resource', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, aud: url, exp: inAnHour() });
    expect((await call('for-this-resource')).status).toBe(200);
    endpoint.answer('for-b', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, aud: 'http://127.0.0.1:1/other', exp: inAnHour() });
    expect((await call('for-b')).status).toBe(401);
  });

  it('refuses an answer with another issuer, or with none, when the verifier knows the issuer', async () => {
    const { endpoint, url, call } = await setup();
    endpoint.answer('wrong-iss', { active: true, scope: 'mcp', client_id: 'c', iss: 'https://evil.example', aud: url, exp: inAnHour() });
    endpoint.answer('no-iss', { active: true, scope: 'mcp', client_id: 'c', aud: url, exp: inAnHour() });
    expect((await call('wrong-iss')).status).toBe(401);
    expect((await call('no-iss')).status, 'an answer without iss must be refused when the issuer is known').toBe(401);
  });

  it('answers 503 within the timeout when the endpoint does not answer, and reports a typed error', async () => {
    const { endpoint, url, errors } = await setup({ timeoutMs: 300 });
    endpoint.answer('slow', 'hang');
    const started = Date.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { authorization: 'Bearer slow', accept: 'application/json, text/event-stream', 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      signal: AbortSignal.timeout(5000),
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = await response.text();
    expect(body).toContain('authorization server unavailable');
    expect(body).not.toContain('127.0.0.1');
    expect(errors.some((error) => error instanceof AuthorizationServerUnavailableError)).toBe(true);
  });

  it('reuses answers for a short time: one introspection call for repeated requests, active or not', async () => {
    const { endpoint, url, call } = await setup();
    endpoint.answer('good', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, aud: url, exp: inAnHour() });
    endpoint.answer('revoked', { active: false });
    for (let i = 0; i < 3; i++) {
      expect((await call('good')).status).toBe(200);
      expect((await call('revoked')).status).toBe(401);
    }
    expect(endpoint.calls('good'), 'an active answer is reused').toBe(1);
    expect(endpoint.calls('revoked'), 'a refusal is reused').toBe(1);
  });

  it('never reuses an answer past the token exp, nor past the cache time to live', async () => {
    let now = Date.now();
    const { endpoint, url, call } = await setup({ now: () => now, cache: { ttlMs: 10_000, negativeTtlMs: 1000, maxEntries: 2 } });
    const nowS = (): number => Math.floor(now / 1000);
    endpoint.answer('short', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, aud: url, exp: nowS() + 3 });
    endpoint.answer('long', { active: true, scope: 'mcp', client_id: 'c', iss: ISSUER, aud: url, exp: nowS() + 3600 });
    expect((await call('short')).status).toBe(200);
    expect((await call('long')).status).toBe(200);
    now += 4000;
    // Past its exp: asked again (the endpoint still says active with the old exp) and refused.
    expect((await call('short')).status).toBe(401);
    expect(endpoint.calls('short')).toBe(2);
    expect((await call('long')).status).toBe(200);
    expect(endpoint.calls('long')).toBe(1);
    now += 7000;
    expect((await call('long')).status).toBe(200);
    expect(endpoint.calls('long'), 'past the cache time to live').toBe(2);
  });
});
