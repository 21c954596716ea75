/**
 * The authorization-server side of the resource-server findings (DPoP replay, introspection,
 * `typ: at+jwt`, verifier error text): an issuer key pair with its JWKS, signed access tokens,
 * DPoP keys that sign proofs, and a protected `McpServer` listening on 127.0.0.1.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, base64url, calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServerOptions } from '@statemcp/http-transport/server';
import type { ProtectedResource } from '@statemcp/http-transport/auth';
import { McpServer } from '@statemcp/server';

export const ISSUER = 'https://auth.security-suite.example';

/** An issuer's signing key and the tokens it signs. */
export interface TestIssuer {
  readonly jwks: { keys: JWK[] };
  /** A signed access token (`typ` `at+jwt` unless told; `null` leaves the header out). */
  token(claims: JWTPayload, options?: { typ?: string | null }): Promise<string>;
}

export async function createIssuer(): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  return {
    jwks: { keys: [jwk] },
    token: (claims, options = {}) => {
      const typ = options.typ === undefined ? 'at+jwt' : options.typ;
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ scope: 'mcp', client_id: 'client-a', sub: 'alice', iss: ISSUER, ...claims })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1', ...(typ === null ? {} : { typ }) })
        .setIssuedAt(now - 5)
        .setExpirationTime(now + 3600)
        .sign(privateKey);
    },
  };
}

/** A client's DPoP key: its thumbprint (`cnf.jkt`) and the proofs it signs. */
export interface DpopKey {
  readonly thumbprint: string;
  /** A proof for one request; `iat` (seconds) defaults to now. */
  proof(claims: { htm: string; htu: string; token: string; nonce?: string; iat?: number }): Promise<string>;
}

export async function createDpopKey(): Promise<DpopKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return {
    thumbprint: await calculateJwkThumbprint(jwk, 'sha256'),
    proof: async ({ htm, htu, token, nonce, iat }) => {
      const ath = base64url.encode(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))));
      const payload = { htm, htu, ath, jti: crypto.randomUUID(), iat: iat ?? Math.floor(Date.now() / 1000), ...(nonce === undefined ? {} : { nonce }) };
      return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk }).sign(privateKey);
    },
  };
}

/**
 * Serves a protected `McpServer` (tool `whoami`) on a free 127.0.0.1 port at `/mcp`; the
 * protected resource is built by `build` from the listening URL.
 */
export async function serveProtected(
  build: (resourceUrl: string) => ProtectedResource,
  options: Pick<StreamableHttpServerOptions, 'onError' | 'cluster'> = {},
): Promise<{ url: string; close: () => Promise<void> }> {
  const mcpServer = new McpServer({ name: 'security-suite-resource', version: '1.0.0' });
  mcpServer.registerTool('whoami', { description: 'Names the caller' }, (_args, extra) => ({
    content: [{ type: 'text', text: extra.auth?.clientId ?? 'anonymous' }],
  }));
  // Built once the URL is known; requests only arrive after that.
  const built: { resource?: ProtectedResource } = {};
  const mcp = createStreamableHttpServer({
    path: '/mcp',
    connect: (transport) => mcpServer.connect(transport),
    authorization: {
      serve: (request) => built.resource?.serve(request),
      authenticate: (request, context) => (built.resource as ProtectedResource).authenticate(request, context),
      authorize: (authInfo, messages) => built.resource?.authorize(authInfo, messages),
      principalOf: (authInfo) => built.resource?.principalOf(authInfo),
    },
    ...options,
  });
  const listening: ListeningServer = await mcp.listen({ port: 0, host: '127.0.0.1' });
  built.resource = build(listening.url.href);
  return { url: listening.url.href, close: () => listening.close() };
}

/** What a client sees of an answer. */
export interface Answer {
  readonly status: number;
  /** `WWW-Authenticate` ('' when absent). */
  readonly challenge: string;
  readonly body: string;
  readonly retryAfter: string | null;
  readonly sessionId: string | null;
}

/** POSTs one JSON-RPC message with these headers. */
export async function post(url: string, headers: Record<string, string>, message: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', 'content-type': 'application/json', ...headers },
    body: JSON.stringify(message),
  });
  const body = await response.text();
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate') ?? '',
    body,
    retryAfter: response.headers.get('retry-after'),
    sessionId: response.headers.get('mcp-session-id'),
  };
}

/** POSTs an `initialize` (2025-11-25) with these headers. */
export function postInitialize(url: string, headers: Record<string, string>): Promise<Answer> {
  return post(url, headers, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'attacker', version: '1' } } });
}

/**
 * A JWKS endpoint on 127.0.0.1 answering `jwks` (or, with `status`, that error status and an
 * internal-looking text no client may see).
 */
export async function serveJwks(answer: { jwks: { keys: JWK[] } } | { status: number; text: string }): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    if ('status' in answer) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.text);
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A loopback URL nothing listens on (a port just released). */
export async function closedPortUrl(path: string): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}${path}`;
}
