/**
 * Verifier and handler error text (issue 32, low): what a token verifier or an `authenticate`
 * hook threw never reaches the client. An unreachable or failing authorization server (JWKS,
 * introspection) is answered 503 "authorization server unavailable" with `Retry-After`; a
 * refused token 401 `invalid_token` with a generic description; a throwing hook 401. The real
 * reason goes to the server's `onError`.
 */
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import {
  AuthorizationServerUnavailableError,
  TokenRejectedError,
  createProtectedResource,
  introspectionVerifier,
  jwtVerifier,
  type TokenVerifier,
} from '@statemcp/http-transport/auth';
import { McpServer } from '@statemcp/server';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ISSUER, closedPortUrl, createIssuer, postInitialize, serveJwks, serveProtected, type TestIssuer } from '../src/serverauth-issuer.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

let issuer: TestIssuer;
beforeAll(async () => {
  issuer = await createIssuer();
});

const SECRET_DETAIL = 'db-primary.internal:5432 password authentication failed for user "resource"';

/** A protected resource with this verifier; the errors its server reported. */
async function setup(verifier: (url: string) => TokenVerifier): Promise<{ url: string; errors: unknown[] }> {
  const errors: unknown[] = [];
  const server = await serveProtected((url) => createProtectedResource({ resource: url, authorizationServers: [ISSUER], verifier: verifier(url) }), {
    onError: (error) => errors.push(error),
  });
  cleanups.push(server.close);
  return { url: server.url, errors };
}

/** Everything a client sees of an answer, as one text. */
function visible(answer: Awaited<ReturnType<typeof postInitialize>>): string {
  return `${answer.challenge}\n${answer.body}`;
}

describe('verifier error text', () => {
  it('answers 503 without the cause when the JWKS endpoint is unreachable, and reports it', async () => {
    const jwksUri = await closedPortUrl('/internal/jwks');
    const { url, errors } = await setup((resource) => jwtVerifier({ issuer: ISSUER, jwksUri, audience: resource }));
    const answer = await postInitialize(url, { authorization: `Bearer ${await issuer.token({ aud: url })}` });
    expect(visible(answer), 'the JWKS failure must not reach the client').not.toMatch(/fetch failed|ECONNREFUSED|internal\/jwks/);
    expect(answer.status).toBe(503);
    expect(answer.retryAfter).toBe('1');
    expect(JSON.parse(answer.body)).toEqual({ error: 'temporarily_unavailable', error_description: 'authorization server unavailable' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(AuthorizationServerUnavailableError);
    expect((errors[0] as Error).cause).toBeDefined();
  });

  it('answers 503 without the text of a JWKS endpoint that fails', async () => {
    const jwks = await serveJwks({ status: 500, text: SECRET_DETAIL });
    cleanups.push(jwks.close);
    const { url, errors } = await setup((resource) => jwtVerifier({ issuer: ISSUER, jwksUri: jwks.url, audience: resource }));
    const answer = await postInitialize(url, { authorization: `Bearer ${await issuer.token({ aud: url })}` });
    expect(visible(answer)).not.toContain('200 OK');
    expect(answer.status).toBe(503);
    expect(errors[0]).toBeInstanceOf(AuthorizationServerUnavailableError);
  });

  it('answers 503 when the introspection endpoint is unreachable', async () => {
    const endpoint = await closedPortUrl('/internal/introspect');
    const { url, errors } = await setup((resource) => introspectionVerifier({ endpoint, clientId: 'rs', clientSecret: 'secret', audience: resource, issuer: ISSUER }));
    const answer = await postInitialize(url, { authorization: 'Bearer opaque-token' });
    expect(visible(answer)).not.toMatch(/fetch failed|ECONNREFUSED|introspect/);
    expect(answer.status).toBe(503);
    expect(errors[0]).toBeInstanceOf(AuthorizationServerUnavailableError);
  });

  it('answers a generic invalid_token when a verifier throws, and hands the error to onError', async () => {
    const { url, errors } = await setup(() => ({
      verify: () => Promise.reject(new Error(SECRET_DETAIL)),
    }));
    const answer = await postInitialize(url, { authorization: 'Bearer anything' });
    expect(visible(answer), 'the verifier error must not reach the client').not.toContain('db-primary');
    expect(answer.status).toBe(401);
    expect(answer.challenge).toContain('error="invalid_token"');
    expect(answer.challenge).toContain('error_description="the access token is not valid"');
    expect(errors[0]).toBeInstanceOf(TokenRejectedError);
    expect(((errors[0] as Error).cause as Error).message).toBe(SECRET_DETAIL);
  });

  it('answers a bare 401 when an authenticate hook throws, and hands the error to onError', async () => {
    const errors: unknown[] = [];
    const mcpServer = new McpServer({ name: 'hook', version: '1.0.0' });
    const mcp = createStreamableHttpServer({
      connect: (transport) => mcpServer.connect(transport),
      authenticate: () => {
        throw new Error(SECRET_DETAIL);
      },
      onError: (error) => errors.push(error),
    });
    const listening = await mcp.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(() => listening.close());
    const answer = await postInitialize(listening.url.href, { authorization: 'Bearer anything' });
    expect(visible(answer), 'the hook error must not reach the client').not.toContain('db-primary');
    expect(answer.status).toBe(401);
    expect(answer.challenge).toBe('Bearer');
    expect((errors[0] as Error).message).toBe(SECRET_DETAIL);
  });
});
