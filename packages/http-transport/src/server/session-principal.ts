/**
 * Who a session belongs to. Every session is bound to the principal of the request that opened
 * it, whichever way that request was authenticated (an `authorization` layer, a plain
 * `authenticate` hook, a WebSocket upgrade hook), and a request naming the session is served only
 * for the same principal. MCP 2025-06-18 and 2025-11-25, Basic › Security Best Practices ›
 * Session Hijacking: servers MUST NOT use sessions for authentication and SHOULD bind session ids
 * to user-specific information; a request of another principal is answered as if the session did
 * not exist (404, Basic › Transports › Streamable HTTP › Session Management), so ids cannot be probed.
 *
 * The default principal of some auth info ({@link sessionPrincipal}):
 *
 * ```
 *  undefined / null                       no principal: an anonymous session, usable only anonymously
 *  a verified OAuth AuthInfo, or an       its identity: issuer (`issuer`/`iss`), subject (`subject`/`sub`)
 *  object with a string `subject`/`sub`   and client (`clientId`/`client_id`/`azp`), whichever are known;
 *                                         the token, its expiry and other claims are left out, so a
 *                                         refreshed token keeps its sessions
 *  any other value                        the whole value (its canonical JSON): the same auth info is the
 *                                         same principal
 * ```
 *
 * The principal is a SHA-256 digest of that identity (`sha256:<hex>`), so session records shared
 * through a store (e.g. Redis) hold no token, claim or user name in the clear.
 */
import { InvalidArgumentError } from '@statemcp/protocol';
import { isAuthInfo } from '@statemcp/protocol/internal';

/** Names the principal of some auth info; `undefined` leaves the session unbound (anonymous). */
export type PrincipalOf = (authInfo: unknown) => string | undefined | Promise<string | undefined>;

/**
 * The principal a session opened with `authInfo` is bound to: `principalOf`'s answer when it is
 * given, else the default described in this module's header (`undefined` for no auth info).
 * Throws `InvalidArgumentError` for auth info with no JSON form (a cycle, a `bigint`) and no
 * `principalOf` to name it.
 *
 * @example
 * ```ts
 * import { sessionPrincipal } from '@statemcp/http-transport/server';
 *
 * const alice = await sessionPrincipal({ sub: 'alice', iss: 'https://id.example.com', exp: 1 });
 * alice === (await sessionPrincipal({ sub: 'alice', iss: 'https://id.example.com', exp: 2 })); // true
 * ```
 */
export async function sessionPrincipal(authInfo: unknown, principalOf?: PrincipalOf): Promise<string | undefined> {
  if (principalOf !== undefined) return principalOf(authInfo);
  if (authInfo === undefined || authInfo === null) return undefined;
  let text: string;
  try {
    text = canonicalJson(identityOf(authInfo), new Set());
  } catch (error) {
    throw new InvalidArgumentError('The auth info of this request has no JSON form to bind its session to; pass principalOf to name its principal', { cause: error });
  }
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return `sha256:${hex}`;
}

function stringField(record: Readonly<Record<string, unknown>>, ...names: string[]): string | null {
  for (const name of names) {
    const value = record[name];
    if (typeof value === 'string') return value;
  }
  return null;
}

/** What identifies the principal of `authInfo` (see the table in the module header). */
function identityOf(authInfo: unknown): unknown {
  if (typeof authInfo === 'object' && authInfo !== null && !Array.isArray(authInfo)) {
    const record = authInfo as Readonly<Record<string, unknown>>;
    const subject = stringField(record, 'subject', 'sub');
    if (subject !== null || isAuthInfo(authInfo)) {
      return { issuer: stringField(record, 'issuer', 'iss'), subject, client: stringField(record, 'clientId', 'client_id', 'azp') };
    }
  }
  return { value: authInfo };
}

/** JSON with object keys sorted (so equal values give equal text); throws on cycles and `bigint`. */
function canonicalJson(input: unknown, ancestors: Set<object>): string {
  const value = typeof input === 'object' && input !== null && typeof (input as { toJSON?: unknown }).toJSON === 'function' ? (input as { toJSON: () => unknown }).toJSON() : input;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  if (ancestors.has(value)) throw new TypeError('the auth info refers to itself');
  ancestors.add(value);
  const skipped = (item: unknown): boolean => item === undefined || typeof item === 'function' || typeof item === 'symbol';
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((item: unknown) => (skipped(item) ? 'null' : canonicalJson(item, ancestors))).join(',')}]`;
  } else {
    const record = value as Readonly<Record<string, unknown>>;
    const keys = Object.keys(record)
      .filter((key) => !skipped(record[key]))
      .sort();
    text = `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key], ancestors)}`).join(',')}}`;
  }
  ancestors.delete(value);
  return text;
}
