/**
 * A real OAuth 2.1 / OpenID provider (`oidc-provider`) on 127.0.0.1 for the authorization
 * tests: a confidential client with the client-credentials grant, JWT access tokens for the
 * resources it is told about (RFC 8707 `resource`, RFC 9068 tokens), DPoP and introspection.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface TestAuthorizationServer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Asks the token endpoint for a client-credentials token for `resource` (Bearer). */
  clientCredentialsToken(resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestAuthorizationServerOptions {
  /** The resources tokens may be issued for: the scopes each offers and the token format (default JWT). */
  resources: Readonly<Record<string, { scope: string; format?: 'jwt' | 'opaque' }>>;
}

export async function startAuthorizationServer(options: TestAuthorizationServerOptions): Promise<TestAuthorizationServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const signing = await generateKeyPair('ES256', { extractable: true });
  const idTokens = await generateKeyPair('RS256', { extractable: true });
  const clientId = 'mcp-test-client';
  const clientSecret = 'a-long-enough-test-secret-for-client-credentials';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(signing.privateKey)), kid: 'es', alg: 'ES256', use: 'sig' }, { ...(await exportJWK(idTokens.privateKey)), kid: 'rs', alg: 'RS256', use: 'sig' }] },
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: { enabled: true, allowedPolicy: () => true },
      dPoP: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const server = options.resources[resource];
          if (server === undefined) throw new errors.InvalidTarget();
          if (server.format === 'opaque') return { scope: server.scope, audience: resource, accessTokenFormat: 'opaque' };
          return { scope: server.scope, audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });
  const handle = provider.callback();
  http.on('request', (req, res) => void handle(req, res));
  const basic = `Basic ${btoa(`${clientId}:${clientSecret}`)}`;
  return {
    issuer,
    clientId,
    clientSecret,
    async clientCredentialsToken(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      if (body.access_token === undefined) throw new Error(`token request failed: ${body.error ?? response.status}`);
      return body.access_token;
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
