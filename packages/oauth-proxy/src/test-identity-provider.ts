/**
 * Test fixtures: a real upstream identity provider on 127.0.0.1 — a second `oidc-provider` with
 * registration off and one pre-registered confidential client (the proxy's), whose sign-in page
 * signs a fixed user in without a form (headless) — and a browser that keeps cookies per origin,
 * follows redirects, and answers the proxy's consent page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import Provider from 'oidc-provider';

/** An HTTP server on 127.0.0.1 and a free port. */
export async function listen(): Promise<{ http: Server; origin: string; close: () => Promise<void> }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    http,
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

export interface TestIdentityProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Sign-ins completed at this provider. */
  logins(): number;
  close(): Promise<void>;
}

/**
 * The upstream: registration off (oidc-provider's default), one confidential client for the
 * proxy with `redirectUri`; every sign-in is `subject`'s.
 */
export async function startIdentityProvider(redirectUri: string, subject: string): Promise<TestIdentityProvider> {
  const server = await listen();
  const idTokens = await generateKeyPair('RS256', { extractable: true });
  const clientId = 'statemcp-oauth-proxy';
  const clientSecret = 'a-secret-the-upstream-gave-the-proxy';
  const provider = new Provider(server.origin, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...(await exportJWK(idTokens.privateKey)), kid: 'upstream-id', alg: 'RS256', use: 'sig' }] },
    // Its own cookie names: the proxy is on the same host (a browser shares cookies across ports).
    cookies: { keys: ['the-upstream-cookie-key'], names: { session: '_upstream_session', interaction: '_upstream_interaction', resume: '_upstream_resume' } },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    interactions: { url: (_ctx, interaction) => `/login/${interaction.uid}` },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
  });
  let logins = 0;
  const handle = provider.callback();
  server.http.on('request', (req, res) => {
    if (!(req.url ?? '').startsWith('/login/')) {
      void handle(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: subject, clientId: String(details.params['client_id']) });
      grant.addOIDCScope('openid');
      const grantId = await grant.save();
      logins++;
      await provider.interactionFinished(req, res, { login: { accountId: subject }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(error instanceof Error ? error.message : String(error));
    });
  });
  return { issuer: server.origin, clientId, clientSecret, logins: () => logins, close: server.close };
}

const decode = (text: string): string => text.replace(/&#(\d+);/g, (_match, code: string) => String.fromCharCode(Number(code)));

/** The user's browser: cookies per origin, redirects followed, the consent page answered with `decision`. */
export class TestBrowser {
  readonly #cookies = new Map<string, Map<string, string>>();
  readonly #redirectUri: string;
  /** What the user decides on a consent page. */
  decision: 'approve' | 'deny' = 'approve';
  /** The CSRF token sent back instead of the page's (a forged form). */
  csrf: string | undefined;
  /** The consent pages seen (their HTML). */
  readonly consentPages: string[] = [];
  /** The answers that reached the redirect URI. */
  readonly answers: URL[] = [];

  constructor(redirectUri: string) {
    this.#redirectUri = redirectUri;
  }

  /** An `authorize` callback for `OAuthClientProvider`: from the authorization URL to the redirect URI. */
  readonly authorize = async (authorizationUrl: URL): Promise<URL> => {
    let request: { url: URL; body?: string } = { url: authorizationUrl };
    for (let hop = 0; hop < 20; hop++) {
      if (request.url.href.startsWith(this.#redirectUri)) {
        this.answers.push(request.url);
        return request.url;
      }
      const response = await this.#send(request.url, request.body);
      const location = response.headers.get('location');
      const body = await response.text();
      if (location !== null) {
        request = { url: new URL(location, request.url) };
        continue;
      }
      const form = /<form method="post" action="([^"]+)">\s*<input type="hidden" name="csrf" value="([^"]+)">/.exec(body);
      if (response.status !== 200 || form?.[1] === undefined || form[2] === undefined) {
        throw new Error(`${request.url.href} answered HTTP ${response.status} without a redirect: ${body.slice(0, 300)}`);
      }
      this.consentPages.push(body);
      request = { url: new URL(decode(form[1]), request.url), body: new URLSearchParams({ csrf: this.csrf ?? decode(form[2]), decision: this.decision }).toString() };
    }
    throw new Error('Too many redirects');
  };

  async #send(url: URL, body: string | undefined): Promise<Response> {
    const jar = this.#cookies.get(url.origin) ?? new Map<string, string>();
    this.#cookies.set(url.origin, jar);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers: Record<string, string> = cookie === '' ? {} : { cookie };
    const response = await fetch(url, {
      redirect: 'manual',
      ...(body === undefined ? { headers } : { method: 'POST', body, headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' } }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
}
