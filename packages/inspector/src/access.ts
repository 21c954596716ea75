/**
 * Who may look: the inspector shows every message of every session in the process, so it is
 * locked down by default. It binds to loopback unless told otherwise, every page load and
 * every WebSocket carries a random token, the Host header must name the inspector (no DNS
 * rebinding), and a browser Origin must be the inspector's own.
 */
import { timingSafeEqual } from 'node:crypto';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True for a host a non-loopback bind would expose to the network. */
export function isLoopbackHost(host: string): boolean {
  return LOOPBACK_NAMES.has(host) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** A fresh access token: 32 random bytes, base64url. */
export function createAccessToken(): string {
  const bytes = new Uint8Array(32);
  globalThis.crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64url');
}

/** Compares a presented token with the expected one in constant time. */
export function tokenMatches(expected: string, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(presented);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** What the guard needs of a request. */
export interface AccessRequest {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly token: string | null;
}

export type AccessVerdict = { readonly ok: true } | { readonly ok: false; readonly status: 401 | 403; readonly reason: string };

/**
 * The check every request goes through. `allowedHosts` are the `host:port` values the Host
 * header may carry (the bound address and, on loopback, its local names); `undefined` accepts
 * any Host (a remote bind the user opened on purpose; the token still guards it).
 */
export function checkAccess(request: AccessRequest, token: string, allowedHosts: ReadonlySet<string> | undefined): AccessVerdict {
  const host = request.host?.toLowerCase();
  if (host === undefined || (allowedHosts !== undefined && !allowedHosts.has(host))) return { ok: false, status: 403, reason: `Host not allowed: ${request.host ?? '(none)'}` };
  if (request.origin !== undefined && request.origin !== `http://${host}`) {
    return { ok: false, status: 403, reason: `Origin not allowed: ${request.origin}` };
  }
  if (!tokenMatches(token, request.token)) return { ok: false, status: 401, reason: 'Missing or wrong token' };
  return { ok: true };
}

/** The Host header values that name an inspector bound to `host` on `port`. */
export function hostsFor(host: string, port: number): ReadonlySet<string> {
  const names = isLoopbackHost(host) ? ['localhost', '127.0.0.1', '[::1]', host.includes(':') && !host.startsWith('[') ? `[${host}]` : host] : [host];
  return new Set(names.map((name) => `${name.toLowerCase()}:${port}`));
}
