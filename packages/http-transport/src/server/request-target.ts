/**
 * The one reading of an HTTP request-target shared by every front door of the server (the
 * Streamable HTTP endpoint, the legacy HTTP+SSE paths, the Protected Resource Metadata route,
 * the WebSocket upgrade).
 *
 * A request-target is not a relative URL. `//evil.example/mcp` is an origin-form target whose
 * path is `//evil.example/mcp` (RFC 9112 §3.2.1: `absolute-path = 1*( "/" segment )`, segments
 * may be empty), yet `new URL(target, base)` reads `evil.example` as an authority and `/mcp` as
 * the path. Behind a proxy that routes or guards by path prefix, that difference lets a request
 * reach an endpoint the proxy never meant it for. So:
 *
 * | target                                    | reading                                              |
 * |-------------------------------------------|------------------------------------------------------|
 * | origin-form `/a/b?q`, `//x/y`             | the path verbatim (`//x/y` is not `/y`)              |
 * | absolute-form `http://host/a` (RFC 9112 §3.2.2) | its path, when `host` is the `Host` header; else refused |
 * | a path with `.`/`..` segments (also `%2e`) or a `\`; a `#`, control characters or spaces anywhere | refused: another reader would normalize it differently |
 * | authority-form, asterisk-form, anything else | refused                                           |
 *
 * A refusal is answered 400 by the caller.
 */

/** A request-target read: its path and query, or why it is refused. */
export type RequestTarget =
  | { readonly ok: true; readonly pathname: string; readonly search: string }
  | { readonly ok: false; readonly reason: string };

const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;
/** A dot segment, plain or percent-encoded (RFC 3986 §3.3, §5.2.4), between slashes or at the end. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?=\/|$)/i;
/** Characters no request-target may hold (RFC 9112 §3.2: no whitespace, no fragment); controls below. */
const FORBIDDEN = /[\s#]/;

/** True when `text` holds a control character (U+0000–U+001F, U+007F). */
function hasControl(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function refused(reason: string): RequestTarget {
  return { ok: false, reason };
}

/** The `host[:port]` of an authority, lower case with the scheme's default port dropped, or `undefined`. */
function authorityOf(value: string, protocol: 'http:' | 'https:'): string | undefined {
  try {
    const url = new URL(`${protocol}//${value.trim()}`);
    if (url.username !== '' || url.password !== '' || url.pathname !== '/' || url.search !== '' || url.hash !== '') return undefined;
    return url.host.toLowerCase();
  } catch {
    return undefined;
  }
}

/** `/` or a path of plain segments only (the common `/mcp`): read as is, without a URL parser. */
const PLAIN_PATH = /^(?:\/|(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)+)$/;

function originForm(target: string): RequestTarget {
  if (!target.startsWith('/')) return refused('the request target must be a path starting with "/"');
  if (PLAIN_PATH.test(target)) return { ok: true, pathname: target, search: '' };
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (FORBIDDEN.test(target) || hasControl(target)) return refused('the request target holds a character that is not allowed');
  if (DOT_SEGMENT.test(path)) return refused('the request target path holds a "." or ".." segment');
  // URL parsers read `\` in a path as `/` (WHATWG URL, special schemes): another reader would see other segments.
  if (path.includes('\\')) return refused('the request target path holds a backslash');
  // Prefixed with an authority of ours, so a path that starts with "//" stays a path.
  let url: URL;
  try {
    url = new URL(`http://target.invalid${target}`);
  } catch {
    return refused('the request target is not a valid path');
  }
  return { ok: true, pathname: url.pathname, search: url.search };
}

/**
 * Reads a request-target. `host` is the request's `Host` header: an absolute-form target is
 * accepted only when it names that same authority. Pass `host: undefined` for a target that is
 * already an absolute URL built by a runtime (a fetch `Request`'s `url`), whose authority was
 * taken from `Host` by that runtime.
 *
 * @example
 * ```ts
 * readRequestTarget('//evil.example/mcp', '127.0.0.1:3000'); // { ok: true, pathname: '//evil.example/mcp', … }
 * readRequestTarget('http://other.example/mcp', '127.0.0.1:3000'); // { ok: false, reason: '…another host…' }
 * ```
 */
export function readRequestTarget(target: string, host: string | undefined): RequestTarget {
  if (!ABSOLUTE_FORM.test(target)) return originForm(target);
  const schemeEnd = target.indexOf('://');
  const scheme = target.slice(0, schemeEnd).toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return refused(`the request target names the scheme ${scheme}:, not http: or https:`);
  const rest = target.slice(schemeEnd + 3);
  const pathAt = rest.search(/[/?]/);
  const authority = pathAt === -1 ? rest : rest.slice(0, pathAt);
  const pathAndQuery = pathAt === -1 ? '/' : rest[pathAt] === '?' ? `/${rest.slice(pathAt)}` : rest.slice(pathAt);
  const protocol = scheme === 'https' ? 'https:' : 'http:';
  const named = authorityOf(authority, protocol);
  if (named === undefined) return refused('the request target has an invalid authority');
  if (host !== undefined && named !== authorityOf(host, protocol)) return refused('the request target names another host than the Host header');
  return originForm(pathAndQuery);
}
