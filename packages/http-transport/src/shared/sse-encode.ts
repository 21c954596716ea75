/**
 * Server-Sent Events *encoder* (WHATWG HTML §9.2 "event stream" format), shared by the
 * Streamable HTTP server, the legacy HTTP+SSE endpoint and anything else that writes an
 * event stream. Parsing lives elsewhere (`sse.ts`, client side).
 *
 * Every function returns a complete block ending with the blank line that dispatches the
 * event, so callers can write the string as one chunk.
 */

/** One event to write. `data` may contain line breaks; each line becomes a `data:` field. */
export interface SseEventFields {
  /** The `id:` field; must not contain CR, LF or NUL. Omitted when undefined. */
  id?: string | undefined;
  /** The `event:` field (event type); `message` is the default and can be omitted. */
  event?: string | undefined;
  /** The payload. An empty string writes one `data:` line with nothing after it. */
  data: string;
  /** The `retry:` field: the reconnection delay the client must wait, in milliseconds. */
  retry?: number | undefined;
}

const LINE_BREAK = /\r\n|\r|\n/;

function assertSingleLine(name: string, value: string): void {
  if (/[\r\n\0]/.test(value)) throw new RangeError(`SSE ${name} must not contain CR, LF or NUL`);
}

/**
 * Encodes one SSE event.
 *
 * @example
 * ```ts
 * encodeSseEvent({ id: 's1:3', data: JSON.stringify(message) });
 * // 'id: s1:3\ndata: {"jsonrpc":"2.0",…}\n\n'
 * ```
 */
export function encodeSseEvent(fields: SseEventFields): string {
  let out = '';
  if (fields.event !== undefined) {
    assertSingleLine('event', fields.event);
    out += `event: ${fields.event}\n`;
  }
  if (fields.id !== undefined) {
    assertSingleLine('id', fields.id);
    out += `id: ${fields.id}\n`;
  }
  if (fields.retry !== undefined) {
    if (!Number.isSafeInteger(fields.retry) || fields.retry < 0) throw new RangeError('SSE retry must be a non-negative integer');
    out += `retry: ${fields.retry}\n`;
  }
  // JSON.stringify never emits raw line breaks, so the common case is one line.
  if (!LINE_BREAK.test(fields.data)) return `${out}data: ${fields.data}\n\n`;
  for (const line of fields.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** Encodes a comment line (ignored by clients), e.g. a keep-alive. */
export function encodeSseComment(text = ''): string {
  if (text === '') return ':\n\n';
  return text
    .split(LINE_BREAK)
    .map((line) => `: ${line}\n`)
    .join('')
    .concat('\n');
}

/** The response headers every SSE response from this package carries. */
export const SSE_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
});

/** Encodes a block that only sets the client's reconnection delay (no event is dispatched). */
export function encodeSseRetry(retryMs: number): string {
  if (!Number.isSafeInteger(retryMs) || retryMs < 0) throw new RangeError('SSE retry must be a non-negative integer');
  return `retry: ${retryMs}\n\n`;
}
