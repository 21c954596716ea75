/**
 * The `auth/*` client scenarios of the conformance suite: the client meets a server behind
 * OAuth and authorizes with `@statemcp/client/auth`, the way an application would. The
 * browser step is headless — the suite's authorization server redirects at once, so the
 * `authorize` callback reads the redirect's `Location` instead of opening a browser.
 */
import { OAuthClientProvider, idJagAssertion, type OAuthClientProviderOptions } from '@statemcp/client/auth';
import type { JsonObject } from '@statemcp/protocol';
import { importPKCS8 } from 'jose';
import { withClient, type Scenario, type ScenarioContext } from './scenarios.js';

/** The client id metadata document URL the suite expects (`auth/basic-cimd`). */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const REDIRECT_URI = 'http://localhost:3000/callback';

/** Follows the authorization URL without a browser: the suite's server answers with the redirect. */
async function headlessAuthorize(authorizationUrl: URL): Promise<URL> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  await response.body?.cancel();
  if (location === null) throw new Error(`The authorization endpoint answered HTTP ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

function text(data: JsonObject | undefined, key: string): string {
  const value = data?.[key];
  if (typeof value !== 'string') throw new Error(`MCP_CONFORMANCE_CONTEXT has no ${key}`);
  return value;
}

/** Connect with `options`, list the tools and call `test-tool` when the server has it. */
function authorizedRun(options: (context: ScenarioContext) => Promise<OAuthClientProviderOptions> | OAuthClientProviderOptions): Scenario {
  return async (context) => {
    const provider = new OAuthClientProvider(await options(context));
    await withClient(
      context,
      {},
      async (client) => {
        const { tools } = await client.listTools();
        context.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
        if (tools.some((tool) => tool.name === 'test-tool')) await client.callTool({ name: 'test-tool', arguments: {} });
      },
      provider,
    );
  };
}

/** The interactive client: DCR or CIMD, authorization code with PKCE. */
const interactive = authorizedRun(() => ({
  clientMetadata: { client_name: 'statemcp-everything-client', redirect_uris: [REDIRECT_URI] },
  clientMetadataUrl: CLIENT_METADATA_URL,
  authorize: headlessAuthorize,
}));

/** Pre-registered credentials from the suite's context, no registration. */
const preRegistered = authorizedRun(({ data }) => ({
  clientMetadata: { client_name: 'statemcp-everything-client', redirect_uris: [REDIRECT_URI] },
  client: { client_id: text(data, 'client_id'), client_secret: text(data, 'client_secret') },
  authorize: headlessAuthorize,
}));

const clientCredentialsBasic = authorizedRun(({ data }) => ({
  client: { client_id: text(data, 'client_id'), client_secret: text(data, 'client_secret') },
  grant: { type: 'client_credentials' },
}));

const clientCredentialsJwt = authorizedRun(async ({ data }) => {
  const algorithm = typeof data?.signing_algorithm === 'string' ? data.signing_algorithm : 'ES256';
  return {
    client: { client_id: text(data, 'client_id'), token_endpoint_auth_method: 'private_key_jwt' },
    privateKey: { key: await importPKCS8(text(data, 'private_key_pem'), algorithm) },
    grant: { type: 'client_credentials' },
  };
});

/** Workload identity (SEP-1933): the workload's JWT as the assertion of a JWT bearer grant. */
const workloadIdentity = authorizedRun(({ data }) => ({
  client: { client_id: text(data, 'client_id'), token_endpoint_auth_method: 'none' },
  grant: { type: 'jwt_bearer', assertion: () => text(data, 'valid_jwt') },
}));

/** Enterprise-managed authorization (SEP-990): ID token → ID-JAG at the IdP → access token at the AS. */
const enterpriseManaged = authorizedRun(({ data }) => ({
  client: { client_id: text(data, 'client_id'), client_secret: text(data, 'client_secret'), token_endpoint_auth_method: 'client_secret_basic' },
  grant: {
    type: 'jwt_bearer',
    assertion: idJagAssertion({
      idpIssuer: text(data, 'idp_issuer'),
      idpTokenEndpoint: text(data, 'idp_token_endpoint'),
      idpClientId: text(data, 'idp_client_id'),
      idToken: text(data, 'idp_id_token'),
    }),
  },
}));

const INTERACTIVE = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/2025-03-26-oauth-metadata-backcompat',
  'auth/2025-03-26-oauth-endpoint-fallback',
  'auth/resource-mismatch',
  'auth/offline-access-scope',
  'auth/offline-access-not-supported',
  'auth/authorization-server-migration',
  'auth/iss-supported',
  'auth/iss-not-advertised',
  'auth/iss-supported-missing',
  'auth/iss-wrong-issuer',
  'auth/iss-unexpected',
  'auth/iss-normalized',
  'auth/metadata-issuer-mismatch',
  'auth/dpop',
  'auth/dpop-nonce',
];

/** Every `auth/*` scenario, by name. */
export const AUTH_SCENARIOS: Readonly<Record<string, Scenario>> = Object.freeze({
  ...Object.fromEntries(INTERACTIVE.map((name) => [name, interactive])),
  'auth/pre-registration': preRegistered,
  'auth/client-credentials-basic': clientCredentialsBasic,
  'auth/client-credentials-jwt': clientCredentialsJwt,
  'auth/wif-jwt-bearer': workloadIdentity,
  'auth/enterprise-managed-authorization': enterpriseManaged,
});
