/**
 * The example's authorization server: `oidc-provider` on 127.0.0.1 with one confidential
 * client (client-credentials grant) that may get JWT access tokens for the resources it is
 * told about (RFC 8707 `resource`), each with its own scopes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider, { errors } from 'oidc-provider';

export interface ExampleAuthorizationServer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Client-credentials token request for `resource`; the token, or the server's error. */
  requestToken(resource: string, scope: string): Promise<{ token: string } | { error: string }>;
  close(): Promise<void>;
}

export async function startAuthorizationServer(resources: Readonly<Record<string, string>>): Promise<ExampleAuthorizationServer> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const accessTokenKey = await generateKeyPair('ES256', { extractable: true });
  const idTokenKey = await generateKeyPair('RS256', { extractable: true });
  const clientId = 'example-agent';
  const clientSecret = 'example-agent-secret-for-the-demo-only';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, grant_types: ['client_credentials'], response_types: [], redirect_uris: [] }],
    jwks: {
      keys: [
        { ...(await exportJWK(accessTokenKey.privateKey)), kid: 'at', alg: 'ES256', use: 'sig' },
        { ...(await exportJWK(idTokenKey.privateKey)), kid: 'id', alg: 'RS256', use: 'sig' },
      ],
    },
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const scope = resources[resource];
          if (scope === undefined) throw new errors.InvalidTarget();
          return { scope, audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } };
        },
      },
    },
  });
  const handle = provider.callback();
  http.on('request', (req, res) => void handle(req, res));
  return {
    issuer,
    clientId,
    clientSecret,
    async requestToken(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string; error?: string };
      return body.access_token === undefined ? { error: body.error ?? `HTTP ${response.status}` } : { token: body.access_token };
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
