/**
 * The OAuth proxy example's stand-ins: an upstream identity provider without registration (a
 * second `oidc-provider`, one pre-registered confidential client — the proxy's — and a sign-in
 * page that signs `alice` in without a form), and the user at the browser, played by code: it
 * keeps cookies per origin, follows redirects, and approves the proxy's consent page.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** The running upstream: the proxy's credentials there, and a way to stop it. */
export interface ExampleUpstream {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  close(): Promise<void>;
}

/** Starts the upstream on a free loopback port; `redirectUri` is the proxy's callback. */
export async function startUpstream(redirectUri: string): Promise<ExampleUpstream> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const clientId = 'mcp-proxy';
  const clientSecret = 'mcp-proxy-secret-for-the-example-only';
  const key = await generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [redirectUri], grant_types: ['authorization_code'], response_types: ['code'] }],
    jwks: { keys: [{ ...(await exportJWK(key.privateKey)), kid: 'idp', alg: 'RS256', use: 'sig' }] },
    cookies: { keys: ['upstream-cookie-key-for-the-example-only'], names: { session: '_idp_session', interaction: '_idp_interaction', resume: '_idp_resume' } },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/login/${interaction.uid}` },
    ttl: { AccessToken: 600, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600 },
    features: { devInteractions: { enabled: false } },
  });
  const handle = provider.callback();
  http.on('request', (req, res) => {
    if (!(req.url ?? '').startsWith('/login/')) {
      void handle(req, res);
      return;
    }
    // The IdP's sign-in page, submitted at once: alice signs in and allows `openid`.
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: 'alice', clientId: String(details.params['client_id']) });
      grant.addOIDCScope('openid');
      await provider.interactionFinished(req, res, { login: { accountId: 'alice' }, consent: { grantId: await grant.save() } });
    })().catch(() => {
      res.statusCode = 500;
      res.end();
    });
  });
  return {
    issuer,
    clientId,
    clientSecret,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

/**
 * The user at the browser, for `OAuthClientProvider`'s `authorize`: from the authorization URL to
 * the redirect URI, approving the consent page on the way (`onPage` sees its HTML).
 */
export function browserUser(redirectUri: string, onPage: (html: string) => void): (authorizationUrl: URL) => Promise<URL> {
  const cookies = new Map<string, Map<string, string>>();
  return async (authorizationUrl) => {
    let url = authorizationUrl;
    let form: string | undefined;
    for (let hop = 0; hop < 20 && !url.href.startsWith(redirectUri); hop++) {
      const jar = cookies.get(url.origin) ?? new Map<string, string>();
      cookies.set(url.origin, jar);
      const headers: Record<string, string> = { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
      const response = await fetch(url, form === undefined ? { redirect: 'manual', headers } : { redirect: 'manual', method: 'POST', body: form, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } });
      form = undefined;
      for (const line of response.headers.getSetCookie()) {
        const [name = '', value = ''] = (line.split(';')[0] ?? '').split(/=(.*)/s);
        jar.set(name, value);
      }
      const html = await response.text();
      const location = response.headers.get('location');
      if (location !== null) {
        url = new URL(location, url);
        continue;
      }
      const consent = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="csrf" value="([^"]+)">/.exec(html);
      if (consent?.[1] === undefined || consent[2] === undefined) throw new Error(`${url.href} answered HTTP ${response.status}`);
      onPage(html);
      url = new URL(consent[1], url);
      form = new URLSearchParams({ csrf: consent[2], decision: 'approve' }).toString();
    }
    if (!url.href.startsWith(redirectUri)) throw new Error('Too many redirects');
    return url;
  };
}
