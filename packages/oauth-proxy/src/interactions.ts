/**
 * The proxy's interaction step, between oidc-provider's authorization endpoint and its answer to
 * the MCP client:
 *
 * ```
 * /auth (oidc-provider) ──▶ GET /interaction/<uid> ──▶ consent page (unless auto-approved)
 *                                                        │ POST /interaction/<uid>/confirm (CSRF token)
 *          login needed ◀────────────────────────────────┘
 *   303 to the upstream IdP (code, PKCE S256, state, nonce) ──▶ GET /upstream/callback
 *   code exchanged, user named, grant saved ──▶ 303 /auth/<uid> (oidc-provider resumes, checks its
 *   resume cookie, and redirects to the client with the code)
 * ```
 *
 * A consent-only interaction (signed in already, a client or scope not yet granted) skips the
 * upstream. The user approves each client before the upstream is involved (2025-11-25, Basic /
 * Security Best Practices, "Confused Deputy Problem"); a denial, a cancelled upstream sign-in or
 * an account the application refuses ends the request with `access_denied` at the client.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomBytes } from 'node:crypto';
import * as oauth from 'oauth4webapi';
import type Provider from 'oidc-provider';
import { errors, type InteractionResults } from 'oidc-provider';
import { checkCsrfToken, csrfToken, PAGE_HEADERS, renderConsentPage, renderMessagePage, type ConsentView } from './consent-page.js';
import type { LoginStore } from './login-store.js';
import { interactionPath, OIDC_SCOPES, type ProxyResource } from './provider-config.js';
import type { UpstreamIdentity, UpstreamProvider } from './upstream.js';

/** The client asking for authorization, as the consent step sees it. */
export interface ConsentClient {
  readonly clientId: string;
  readonly clientName: string | undefined;
  readonly redirectUris: readonly string[];
  /** True when the `client_id` is a client ID metadata document URL (its host vouches for it). */
  readonly metadataDocument: boolean;
}

/** How the consent step behaves. */
export interface ConsentOptions {
  /**
   * Skips the page for clients you trust (first-party apps): true = approved. Default: every
   * client is shown to the user.
   */
  readonly autoApprove?: (client: ConsentClient) => boolean | Promise<boolean>;
  /** Your own page (HTML); it must POST `csrf` and `decision` (`approve` or `deny`) to `view.action`. */
  readonly render?: (view: ConsentView) => string;
}

/** What the interaction routes work with. */
export interface InteractionContext {
  readonly provider: Provider;
  readonly upstream: UpstreamProvider;
  readonly logins: LoginStore;
  readonly resources: readonly ProxyResource[];
  readonly cookieKeys: readonly string[];
  readonly consent: ConsentOptions;
  /** Maps the upstream identity to the proxy's account id; `undefined` refuses the user. */
  readonly account: (identity: UpstreamIdentity) => string | undefined | Promise<string | undefined>;
  readonly report: (error: unknown) => void;
}

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/** The most bytes of a consent form body read. */
const MAX_FORM_BYTES = 8 * 1024;

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, { ...PAGE_HEADERS, 'content-length': Buffer.byteLength(html) });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

/** The `application/x-www-form-urlencoded` body of a request, bounded. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** Seconds left of an interaction (at least one). */
function remaining(interaction: { exp: number }): number {
  return Math.max(1, interaction.exp - Math.floor(Date.now() / 1000));
}

/** The proxy's routes under `/interaction/` and the upstream callback. */
export class InteractionRoutes {
  readonly #context: InteractionContext;
  readonly #resources: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(context: InteractionContext) {
    this.#context = context;
    this.#resources = new Map(context.resources.map((entry) => [entry.resource, new Set(entry.scopes)]));
  }

  /** `GET /interaction/<uid>`: the consent page, or straight on for an auto-approved client. */
  async show(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await this.#interaction(req, res, uid);
    if (interaction === undefined) return;
    const client = await this.#client(interaction);
    if (client === undefined) return send(res, 400, renderMessagePage('Unknown application', 'The application that started this sign-in is not known here.'));
    if ((await this.#context.consent.autoApprove?.(client)) === true) return this.#proceed(req, res, interaction);
    const scope = typeof interaction.params['scope'] === 'string' ? interaction.params['scope'] : '';
    const view: ConsentView = {
      clientName: client.clientName,
      clientId: client.clientId,
      redirectUri: typeof interaction.params['redirect_uri'] === 'string' ? interaction.params['redirect_uri'] : (client.redirectUris[0] ?? ''),
      resources: this.#requestedResources(interaction),
      scopes: scope.split(' ').filter((item) => item !== ''),
      upstreamIssuer: this.#context.upstream.issuer,
      action: `${interactionPath(interaction.uid)}/confirm`,
      csrf: csrfToken(this.#cookieKey(), interaction.uid),
    };
    send(res, 200, (this.#context.consent.render ?? renderConsentPage)(view));
  }

  /** `POST /interaction/<uid>/confirm`: the user's decision, checked against the CSRF token. */
  async confirm(req: IncomingMessage, res: ServerResponse, uid: string): Promise<void> {
    const interaction = await this.#interaction(req, res, uid);
    if (interaction === undefined) return;
    const form = await readForm(req);
    if (form === undefined || !checkCsrfToken(this.#context.cookieKeys, interaction.uid, form.get('csrf') ?? '')) {
      return send(res, 403, renderMessagePage('Request refused', 'This form was not sent from the consent page of this sign-in.'));
    }
    if (form.get('decision') !== 'approve') {
      return this.#context.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user denied the request' }, { mergeWithLastSubmission: false });
    }
    return this.#proceed(req, res, interaction);
  }

  /** `GET /upstream/callback`: the upstream's answer; finishes the interaction it belongs to. */
  async callback(res: ServerResponse, url: URL): Promise<void> {
    const state = url.searchParams.get('state');
    const pending = state === null ? undefined : await this.#context.logins.take(state);
    const interaction = pending === undefined ? undefined : await this.#context.provider.Interaction.find(pending.interactionUid);
    if (state === null || pending === undefined || interaction === undefined) {
      return send(res, 400, renderMessagePage('Sign-in expired', 'This sign-in is unknown or has expired. Start again from your application.'));
    }
    let result: InteractionResults;
    try {
      const identity = await this.#context.upstream.finish(url, state, pending);
      const accountId = await this.#context.account(identity);
      if (accountId === undefined) {
        result = { error: 'access_denied', error_description: 'This account may not use this server' };
      } else {
        const grantId = await this.#saveGrant(interaction, accountId);
        result = { login: { accountId }, consent: { grantId } };
      }
    } catch (error) {
      if (error instanceof oauth.AuthorizationResponseError) {
        result = { error: 'access_denied', error_description: `The sign-in at the identity provider ended with ${error.error}` };
      } else {
        this.#context.report(error);
        result = { error: 'temporarily_unavailable', error_description: 'The sign-in at the identity provider failed' };
      }
    }
    interaction.result = result;
    await interaction.save(remaining(interaction));
    redirect(res, interaction.returnTo);
  }

  /** The interaction of this browser, which must be the one the URL names; a page when there is none. */
  async #interaction(req: IncomingMessage, res: ServerResponse, uid: string): Promise<Interaction | undefined> {
    let interaction: Interaction;
    try {
      interaction = await this.#context.provider.interactionDetails(req, res);
    } catch (error) {
      // No interaction cookie, or an expired interaction, is the browser's state; anything else is ours.
      if (!(error instanceof errors.SessionNotFound)) this.#context.report(error);
      send(res, 400, renderMessagePage('Sign-in expired', 'This sign-in has expired or was started in another browser. Start again from your application.'));
      return undefined;
    }
    if (interaction.uid !== uid) {
      send(res, 400, renderMessagePage('Sign-in mismatch', 'This page belongs to another sign-in. Start again from your application.'));
      return undefined;
    }
    return interaction;
  }

  async #client(interaction: Interaction): Promise<ConsentClient | undefined> {
    const clientId = interaction.params['client_id'];
    if (typeof clientId !== 'string') return undefined;
    const client = await this.#context.provider.Client.find(clientId);
    if (client === undefined) return undefined;
    return {
      clientId: client.clientId,
      clientName: client.clientName,
      redirectUris: client.redirectUris ?? [],
      metadataDocument: clientId.startsWith('https://'),
    };
  }

  /** Approved: a login goes to the upstream; a consent-only interaction is granted at once. */
  async #proceed(req: IncomingMessage, res: ServerResponse, interaction: Interaction): Promise<void> {
    if (interaction.prompt.name === 'login') {
      const state = randomBytes(32).toString('base64url');
      const { url, login } = await this.#context.upstream.start(state);
      await this.#context.logins.save(state, { interactionUid: interaction.uid, ...login }, remaining(interaction));
      return redirect(res, url.href);
    }
    const accountId = interaction.session?.accountId;
    if (accountId === undefined) return send(res, 400, renderMessagePage('Sign-in expired', 'Start again from your application.'));
    const grantId = await this.#saveGrant(interaction, accountId);
    return this.#context.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  /** The resources of the request: those named, else the default (the first configured). */
  #requestedResources(interaction: Interaction): string[] {
    const named = stringsOf(interaction.params['resource']);
    const fallback = this.#context.resources[0]?.resource;
    return named.length > 0 ? named : fallback === undefined ? [] : [fallback];
  }

  /**
   * Grants what was asked and may be had: the OpenID scopes asked for, and for each requested
   * resource the asked scopes it defines. A grant of another account is never extended.
   */
  async #saveGrant(interaction: Interaction, accountId: string): Promise<string> {
    const { Grant } = this.#context.provider;
    const clientId = String(interaction.params['client_id']);
    const existing = interaction.grantId === undefined ? undefined : await Grant.find(interaction.grantId);
    const grant = existing !== undefined && existing.accountId === accountId && existing.clientId === clientId ? existing : new Grant({ accountId, clientId });
    const scope = typeof interaction.params['scope'] === 'string' ? interaction.params['scope'] : '';
    const requested = scope.split(' ').filter((item) => item !== '');
    const oidc = requested.filter((item) => OIDC_SCOPES.has(item));
    if (oidc.length > 0) grant.addOIDCScope(oidc);
    for (const resource of this.#requestedResources(interaction)) {
      const scopes = this.#resources.get(resource);
      if (scopes !== undefined) grant.addResourceScope(resource, requested.filter((item) => scopes.has(item)));
    }
    return grant.save();
  }

  #cookieKey(): string {
    const [key] = this.#context.cookieKeys;
    if (key === undefined) throw new TypeError('The proxy has no cookie key');
    return key;
  }
}
