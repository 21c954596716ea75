/**
 * The caller-supplied headers of an HTTP client transport: a fixed record or a function
 * called before every request (the place for a bearer token that may be refreshed).
 */
import { LAST_EVENT_ID_HEADER, METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from '@statemcp/protocol/internal';

/** Extra headers for every request, static or computed per request. */
export type HeadersOption =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Headers the transport owns; a caller's value for them is ignored. */
const RESERVED = new Set(['accept', 'content-type', SESSION_ID_HEADER, PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER, LAST_EVENT_ID_HEADER, 'content-length']);

/**
 * Resolves the caller's headers and layers the transport's own on top, as a plain record with
 * lower-case names: `fetch` takes it as is, and `nodeHttpFetch` hands it to `node:http`
 * without the round trip through a `Headers` (the fetch validates the names and values).
 * Synchronous unless the caller's headers are a function, so a POST with fixed headers takes
 * no promise hop before its fetch.
 */
export function buildHeaders(
  option: HeadersOption | undefined,
  own: Readonly<Record<string, string | undefined>>,
): Record<string, string> | Promise<Record<string, string>> {
  return typeof option === 'function' ? layered(option, own) : layer(option, own);
}

async function layered(option: () => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>, own: Readonly<Record<string, string | undefined>>): Promise<Record<string, string>> {
  return layer(await option(), own);
}

function layer(extra: Readonly<Record<string, string>> | undefined, own: Readonly<Record<string, string | undefined>>): Record<string, string> {
  // No prototype when the caller adds headers: one may be named `constructor` or `__proto__`.
  // Without them, a literal keeps fast properties (a null-prototype object starts as a dictionary).
  const headers = (extra === undefined ? {} : Object.create(null)) as Record<string, string>;
  if (extra !== undefined) {
    for (const name of Object.keys(extra)) {
      const key = name.toLowerCase();
      if (RESERVED.has(key)) continue;
      // Two spellings of one name combine, as `Headers.append` would.
      const value = extra[name] as string;
      const previous = headers[key];
      headers[key] = previous === undefined ? value : `${previous}, ${value}`;
    }
  }
  for (const name of Object.keys(own)) {
    const value = own[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/**
 * The headers of a Streamable HTTP POST (MCP 2025-11-25 Transports §Sending Messages to the
 * Server, §Session Management, §Protocol Version Header): `Accept` and `Content-Type`, the
 * session id, and the session's version unless `routing` (a 2026-07-28 request's routing
 * headers, a fresh record given up to this call) names one, over the caller's. Without caller
 * headers, that record is what goes out: no copy per POST.
 */
export function postHeaders(
  option: HeadersOption | undefined,
  routing: Record<string, string> | undefined,
  sessionId: string | undefined,
  version: string | undefined,
): Record<string, string> | Promise<Record<string, string>> {
  const own = routing ?? {};
  own.accept = 'application/json, text/event-stream';
  own['content-type'] = 'application/json';
  if (sessionId !== undefined) own[SESSION_ID_HEADER] = sessionId;
  if (version !== undefined && own[PROTOCOL_VERSION_HEADER] === undefined) own[PROTOCOL_VERSION_HEADER] = version;
  return option === undefined ? own : buildHeaders(option, own);
}
