/**
 * Reading an HTTP response body with a bound, for the clients of this SDK: a hostile or broken
 * server can send a body that never ends, and a client that buffers it all runs out of memory.
 * The body is read chunk by chunk and cut at the bound: the read fails with
 * {@link MessageTooLargeError} (naming the bound), or — for an error page quoted in a message —
 * stops quietly with what it has.
 */
import { MessageTooLargeError } from '../errors/errors.js';

/** Options of {@link readBoundedText}. */
export interface BoundedTextOptions {
  /** The most bytes read from the body. */
  readonly maxBytes: number;
  /**
   * What happens past `maxBytes`: `'error'` (default) rejects with {@link MessageTooLargeError};
   * `'truncate'` resolves with the text of the first `maxBytes` bytes. Either way the rest of
   * the body is cancelled, which closes the connection.
   */
  readonly overflow?: 'error' | 'truncate';
  /** How the error names the body, e.g. `'The JSON response from https://…'`. Default `'The response body'`. */
  readonly what?: string;
  /** The setting that raises the bound, named in the error (e.g. `'maxMessageSize'`). */
  readonly option?: string;
}

/** `n` bytes as the READMEs write them: `16 MiB`, `64 KiB`, `100 bytes`. */
export function formatByteSize(n: number): string {
  if (n >= 1024 * 1024 && n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`;
  if (n >= 1024 && n % 1024 === 0) return `${n / 1024} KiB`;
  return `${n} bytes`;
}

/** The error for a body or message past `maxBytes`; `what` names it and `option` the setting that raises the bound. */
export function tooLargeError(what: string, maxBytes: number, option?: string): InstanceType<typeof MessageTooLargeError> {
  return new MessageTooLargeError(`${what} exceeded the ${formatByteSize(maxBytes)} limit${option === undefined ? '' : ` (${option})`}`);
}

/**
 * The body of `response` as UTF-8 text (a leading BOM dropped, as `response.text()` does),
 * reading at most `maxBytes` bytes.
 *
 * @example
 * ```ts
 * const text = await readBoundedText(response, { maxBytes: 1024 * 1024, what: `GET ${url}` });
 * ```
 */
export async function readBoundedText(response: Response, options: BoundedTextOptions): Promise<string> {
  const { maxBytes } = options;
  const what = options.what ?? 'The response body';
  const error = options.overflow !== 'truncate';
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (error && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLargeError(what, maxBytes, options.option);
  }
  const body = response.body;
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  let text = '';
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const room = maxBytes - size;
      size += value.byteLength;
      if (value.byteLength > room) {
        reader.cancel().catch(() => undefined);
        if (error) throw tooLargeError(what, maxBytes, options.option);
        return text + decoder.decode(value.subarray(0, room));
      }
      text += decoder.decode(value, { stream: true });
    }
    return text + decoder.decode();
  } finally {
    reader.releaseLock();
  }
}
