/**
 * The caller-supplied headers of an HTTP client transport: a fixed record or a function
 * called before every request (the place for a bearer token that may be refreshed).
 */

/** Extra headers for every request, static or computed per request. */
export type HeadersOption =
  | Readonly<Record<string, string>>
  | (() => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);

/** Headers the transport owns; a caller's value for them is ignored. */
const RESERVED = new Set(['accept', 'content-type', 'mcp-session-id', 'mcp-protocol-version', 'mcp-method', 'mcp-name', 'last-event-id', 'content-length']);

/** Resolves the caller's headers and layers the transport's own on top. */
export async function buildHeaders(
  option: HeadersOption | undefined,
  own: Readonly<Record<string, string | undefined>>,
): Promise<Headers> {
  const headers = new Headers();
  const extra = typeof option === 'function' ? await option() : option;
  if (extra !== undefined) {
    for (const [name, value] of Object.entries(extra)) {
      if (!RESERVED.has(name.toLowerCase())) headers.set(name, value);
    }
  }
  for (const [name, value] of Object.entries(own)) {
    if (value !== undefined) headers.set(name, value);
  }
  return headers;
}
