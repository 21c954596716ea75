/**
 * The authorization server of the authorization example, standing in for your identity
 * provider: `oidc-provider` on 127.0.0.1 with one confidential client that gets JWT access
 * tokens (client-credentials grant) for the resource it names (RFC 8707), with the scopes
 * `mcp` and `admin`. In-memory storage and a demo secret: for the example only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The running issuer, its one client's credentials, and a way to stop it. */
export interface ExampleIssuer {
  readonly issuer: string;
  readonly client: { readonly client_id: string; readonly client_secret: string };
  close(): Promise<void>;
}

/** Starts the issuer on a free loopback port. */
export async function startIssuer(): Promise<ExampleIssuer> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const client = { client_id: 'report-bot', client_secret: 'report-bot-secret-for-the-example-only' };
  const signingKey = await generateKeyPair('ES256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [{ ...client, grant_types: ['client_credentials'], id_token_signed_response_alg: 'ES256', response_types: [], redirect_uris: [] }],
    jwks: { keys: [{ ...(await exportJWK(signingKey.privateKey)), kid: 'at', alg: 'ES256', use: 'sig' }] },
    ttl: { ClientCredentials: 600 },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => 'urn:example:none',
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => ({ scope: 'mcp admin', audience: resource, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'ES256' } } }),
      },
    },
  });
  const handle = provider.callback();
  http.on('request', (req, res) => void handle(req, res));
  return {
    issuer,
    client,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
