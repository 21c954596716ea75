/**
 * The value encoding of the 2026-07-28 HTTP request headers `Mcp-Name` and `Mcp-Param-*`
 * (MCP 2026-07-28 basic/transports/streamable-http): a plain ASCII value is sent as is; anything
 * else is sent as
 * `=?base64?<base64 of the UTF-8 bytes>?=`. A value without both markers is literal.
 */

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
 * Encodes one header value: as is when it is plain visible ASCII without surrounding
 * whitespace and does not look like the sentinel, otherwise `=?base64?…?=`.
 */
export function encodeHeaderValue(value: string): string {
  if ((value === '' || PLAIN.test(value)) && !value.startsWith(SENTINEL_START)) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${SENTINEL_START}${btoa(binary)}${SENTINEL_END}`;
}
