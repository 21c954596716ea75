/**
 * Per-principal views: what each caller may see of an `McpServer`'s registrations. Every
 * registration (tool, prompt, resource, resource template, skill files) may carry a
 * {@link Visibility}: required scopes and/or a predicate over the caller ({@link Viewer}). The
 * rule is evaluated for each request with the auth info that request carries (the HTTP
 * transport's verified bearer or DPoP token), never cached per connection or per instance, so
 * a token with more scopes on the same session sees more at once, and every instance of a
 * cluster answers alike.
 *
 * ```
 *  rule \ request          list                      call / get / read
 *  visible to the caller   listed                    served
 *  hidden from it          left out                  answered as if unknown: tools/call and
 *                                                    prompts/get -32602, resources/read the
 *                                                    revision's resource-not-found error
 * ```
 *
 * With `whenMissing: 'challenge'` missing scopes hide nothing: the item is listed, and a call
 * without them is refused for a step-up (`scope-challenges.ts`; over HTTP a 403
 * `insufficient_scope` from the protected resource, MCP 2025-11-25, Authorization › Scope
 * Challenge Handling).
 *
 * A hidden item is answered exactly as one that was never registered (MCP 2025-11-25, Server
 * Features › Tools › Error Handling: unknown tools are -32602; Resources › Error Handling:
 * resource not found -32002), so nobody can probe for another user's items.
 */
import { ErrorCode, JsonRpcError, type AuthInfo } from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';

/** Who a request acts for, as visibility rules see it. */
export interface Viewer {
  /**
   * What the transport's authorization produced for the request: an OAuth `AuthInfo` behind
   * `createProtectedResource`, any value an `authenticate` hook returned; `undefined` when the
   * request was not authenticated (stdio, in memory, an open HTTP endpoint).
   */
  readonly authInfo: unknown;
  /** `authInfo` when it is an OAuth `AuthInfo`. */
  readonly auth: AuthInfo | undefined;
  /** The scopes granted to the request (`auth.scopes`); empty without an OAuth token. */
  readonly scopes: ReadonlySet<string>;
}

/** Who may see a registration: both conditions must hold when both are given. */
export interface Visibility {
  /** Scopes the caller's token must all carry (e.g. `['files:write']`). */
  readonly requiredScopes?: readonly string[];
  /**
   * What a caller without every `requiredScopes` gets. `'hide'` (default): the item leaves the
   * lists and is answered as unknown. `'challenge'`: the item stays listed, and a call is refused
   * for a step-up — over HTTP with `403 insufficient_scope` and a `WWW-Authenticate` challenge
   * naming the scopes, when the protected resource is given `registrations` (see
   * `McpServer.scopeChallenges`); elsewhere with -32602 naming the missing scopes.
   */
  readonly whenMissing?: 'hide' | 'challenge';
  /** A predicate over the caller, e.g. `(viewer) => viewer.auth?.subject === 'alice'`; must not throw. */
  readonly visible?: (viewer: Viewer) => boolean;
}

/** @internal A registration's compiled rule; `undefined` when it is visible to everyone. */
export interface VisibilityRule {
  readonly requiredScopes: readonly string[];
  /** `whenMissing: 'challenge'`: missing scopes refuse calls but hide nothing. */
  readonly challenge: boolean;
  readonly visible: ((viewer: Viewer) => boolean) | undefined;
}

/** @internal What a registry entry carries to be filtered per viewer. */
export interface Viewable {
  enabled: boolean;
  visibility: VisibilityRule | undefined;
}

const NO_SCOPES: ReadonlySet<string> = new Set();

/** The {@link Viewer} of a request's auth info. */
export function viewerOf(authInfo: unknown): Viewer {
  const auth = isAuthInfo(authInfo) ? authInfo : undefined;
  return { authInfo, auth, scopes: auth === undefined ? NO_SCOPES : new Set(auth.scopes) };
}

/** @internal The rule of a registration's config; `undefined` when it sets none. */
export function visibilityRule(config: Visibility): VisibilityRule | undefined {
  const requiredScopes = config.requiredScopes ?? [];
  if (requiredScopes.length === 0 && config.visible === undefined) return undefined;
  return { requiredScopes: [...requiredScopes], challenge: config.whenMissing === 'challenge', visible: config.visible };
}

/**
 * The viewer of one request, built at its first use: a request that meets no rule builds none.
 */
export class LazyViewer {
  readonly authInfo: unknown;
  #viewer: Viewer | undefined;

  constructor(authInfo: unknown) {
    this.authInfo = authInfo;
  }

  get viewer(): Viewer {
    return (this.#viewer ??= viewerOf(this.authInfo));
  }

  /** Whether `rule` lets this viewer see its registration (scopes of a challenging rule hide nothing). */
  allows(rule: VisibilityRule | undefined): boolean {
    if (rule === undefined) return true;
    if (!rule.challenge && this.missing(rule).length > 0) return false;
    return rule.visible === undefined || rule.visible(this.viewer) === true;
  }

  /** The scopes of `rule` this viewer's token lacks. */
  missing(rule: VisibilityRule | undefined): readonly string[] {
    if (rule === undefined || rule.requiredScopes.length === 0) return [];
    const { scopes } = this.viewer;
    return rule.requiredScopes.filter((scope) => !scopes.has(scope));
  }

  /**
   * Refuses a call of the item `kind` `name` (e.g. `Tool`, `delete_notes`), listed for this
   * viewer, whose challenging rule names scopes its token lacks: -32602 naming them (over HTTP
   * the protected resource answers 403 `insufficient_scope` before the call gets here). The
   * item's label is made only for that error, not for every call.
   */
  challenge(entry: Viewable, kind: string, name: string): void {
    if (entry.visibility?.challenge !== true) return;
    const missing = this.missing(entry.visibility);
    if (missing.length > 0) throw new JsonRpcError(ErrorCode.InvalidParams, `${kind} ${name} needs scope ${missing.join(' ')}`, { requiredScopes: [...entry.visibility.requiredScopes] });
  }

  /** Whether `entry` is listed and served for this viewer (enabled and visible). */
  shows(entry: Viewable): boolean {
    return entry.enabled && this.allows(entry.visibility);
  }
}

/**
 * The key that ties requests of one principal together (its issuer, subject and client), for
 * finding its listen streams when its view changes; `undefined` for auth info that names no
 * subject or client (each such request stands alone).
 */
export function principalKeyOf(authInfo: unknown): string | undefined {
  if (typeof authInfo !== 'object' || authInfo === null) return undefined;
  const record = authInfo as Readonly<Record<string, unknown>>;
  const text = (...names: string[]): string => {
    for (const name of names) if (typeof record[name] === 'string') return record[name];
    return '';
  };
  const subject = text('subject', 'sub');
  const client = text('clientId', 'client_id', 'azp');
  if (subject === '' && client === '') return undefined;
  return JSON.stringify([text('issuer', 'iss'), subject, client]);
}

/** @internal Whether two rules are the same (an update that keeps its rule concerns only the registration's viewers). */
export function sameRule(a: VisibilityRule | undefined, b: VisibilityRule | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.visible === b.visible && a.challenge === b.challenge && a.requiredScopes.length === b.requiredScopes.length && a.requiredScopes.every((scope, index) => b.requiredScopes[index] === scope);
}
