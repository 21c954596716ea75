/**
 * The MCP request headers of Streamable HTTP, in one place for the client and the server:
 * their names (lower case — HTTP header names are case-insensitive), which methods carry
 * `Mcp-Name` and from which param, and the value encoding of `Mcp-Name` and `Mcp-Param-*`
 * (MCP 2025-11-25 basic/transports §Session Management, §Protocol Version Header;
 * MCP 2026-07-28 basic/transports/streamable-http).
 *
 * Values: a plain visible-ASCII value is sent as is; anything else — non-ASCII, control
 * characters, surrounding whitespace, or a value that itself starts like the sentinel — is sent
 * as `=?base64?<base64 of the UTF-8 bytes>?=`. A received value without both markers is literal.
 */

/** `Mcp-Session-Id`: the session of a session-bearing (2025-03-26 … 2025-11-25) exchange. */
export const SESSION_ID_HEADER = 'mcp-session-id';
/** `MCP-Protocol-Version`: the revision of the request (2025-06-18+). */
export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';
/** `Mcp-Method`: the JSON-RPC method of a 2026-07-28 request. */
export const METHOD_HEADER = 'mcp-method';
/** `Mcp-Name`: the name, URI or task id a 2026-07-28 request is about (see {@link nameParamOf}). */
export const NAME_HEADER = 'mcp-name';
/** The prefix of the `Mcp-Param-{Name}` headers that mirror annotated tool arguments. */
export const PARAM_HEADER_PREFIX = 'mcp-param-';
/** `Last-Event-ID`: where a resumed SSE stream picks up (session-bearing revisions only). */
export const LAST_EVENT_ID_HEADER = 'last-event-id';

/** Methods whose `Mcp-Name` header mirrors a param, and which param. */
const NAME_PARAMS: ReadonlyMap<string, 'name' | 'uri' | 'taskId'> = new Map([
  ['tools/call', 'name'],
  ['prompts/get', 'name'],
  ['resources/read', 'uri'],
  // The tasks extension (SEP-2663): routed by the task id.
  ['tasks/get', 'taskId'],
  ['tasks/update', 'taskId'],
  ['tasks/cancel', 'taskId'],
] as const);

/** The param `method` mirrors in `Mcp-Name`, or undefined when it carries no `Mcp-Name`. */
export function nameParamOf(method: string): 'name' | 'uri' | 'taskId' | undefined {
  return NAME_PARAMS.get(method);
}

const SENTINEL_START = '=?base64?';
const SENTINEL_END = '?=';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const PLAIN = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Decodes one header value: the UTF-8 text of a `=?base64?…?=` value, or the value itself
 * (trimmed of surrounding whitespace, which HTTP does not count as part of it). Undefined when
 * the value is malformed: bad base64 (characters, padding), invalid UTF-8, or control characters.
 *
 * @example
 * ```ts
 * decodeHeaderValue('=?base64?SGVsbG8=?='); // 'Hello'
 * decodeHeaderValue('us-west1'); // 'us-west1'
 * decodeHeaderValue('=?base64?SGVsbG8?='); // undefined (padding)
 * ```
 */
export function decodeHeaderValue(raw: string): string | undefined {
  const value = raw.trim();
  if (value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END) && value.length >= SENTINEL_START.length + SENTINEL_END.length) {
    const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
    if (!BASE64.test(encoded)) return undefined;
    try {
      const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
      return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return undefined;
    }
  }
  if (value === '') return '';
  return PLAIN.test(value) ? value : undefined;
}

/**
 * Encodes one header value: as is when it is empty or plain visible ASCII without surrounding
 * whitespace and does not start like the sentinel (in any case), otherwise `=?base64?…?=`.
 *
 * @example
 * ```ts
 * encodeHeaderValue('us-west1'); // 'us-west1'
 * encodeHeaderValue('Zürich'); // '=?base64?WsO8cmljaA==?='
 * ```
 */
export function encodeHeaderValue(value: string): string {
  if (value === '' || (PLAIN.test(value) && value.slice(0, SENTINEL_START.length).toLowerCase() !== SENTINEL_START)) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `${SENTINEL_START}${btoa(binary)}${SENTINEL_END}`;
}
