/**
 * Newline-delimited framing for stdio (MCP 2025-11-25 basic/transports §stdio): one JSON-RPC
 * message per line.
 *
 * The framer is linear in the size of its input. Bytes are examined exactly once: each
 * chunk is searched for `\n` only from where the previous search stopped, and an
 * incomplete line is kept as a list of chunk slices (never concatenated until the line is
 * complete), so a 10 MiB message that arrives in 64 KiB pieces costs one scan and one copy,
 * not a quadratic series of re-scans and re-allocations.
 *
 * Lines are decoded as UTF-8 only once complete, so a multi-byte character split across
 * two chunks is decoded correctly. A trailing `\r` is dropped (`\r\n` is tolerated) and
 * empty lines are ignored.
 */

/** Default limit for one message: 64 MiB. */
export const DEFAULT_MAX_MESSAGE_SIZE = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;

/** What the framer reports. */
export interface LineFramerHandlers {
  /** A complete, non-empty line without its terminator, decoded as UTF-8. */
  onLine(text: string): void;
  /**
   * A line grew beyond `maxMessageSize` bytes. Reported once per line, as soon as the limit
   * is crossed; the line's bytes are dropped and framing resumes after its newline.
   */
  onOversized(size: number, maxMessageSize: number): void;
}

/** Options of the newline-delimited JSON framer: the largest message it accepts. */
export interface LineFramerOptions {
  /** Largest accepted line in bytes, excluding the terminator. Default {@link DEFAULT_MAX_MESSAGE_SIZE}. */
  maxMessageSize?: number;
}

/**
 * Splits a byte stream into lines.
 *
 * @example
 * ```ts
 * const framer = new LineFramer({
 *   onLine: (text) => console.log(JSON.parse(text)),
 *   onOversized: (size) => console.error(`dropped a ${size}-byte line`),
 * });
 * framer.push(Buffer.from('{"jsonrpc":"2.0",'));
 * framer.push(Buffer.from('"method":"ping","id":1}\n')); // logs the message
 * ```
 */
export class LineFramer {
  readonly maxMessageSize: number;
  readonly #handlers: LineFramerHandlers;
  /** Slices of the incomplete current line; none of them contains `\n`. */
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** True while dropping the rest of an oversized line. */
  #skipping = false;

  constructor(handlers: LineFramerHandlers, options: LineFramerOptions = {}) {
    const max = options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE;
    if (!Number.isSafeInteger(max) || max <= 0) {
      throw new RangeError(`maxMessageSize must be a positive integer, got ${String(max)}`);
    }
    this.maxMessageSize = max;
    this.#handlers = handlers;
  }

  /** Bytes held for the incomplete current line. */
  get bufferedBytes(): number {
    return this.#pendingBytes;
  }

  /** Feeds the next chunk of the stream. */
  push(chunk: Uint8Array): void {
    const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < buffer.length) {
      const newline = buffer.indexOf(LF, start);
      if (newline === -1) {
        this.#keep(buffer, start, buffer.length);
        return;
      }
      this.#complete(buffer, start, newline);
      start = newline + 1;
    }
  }

  /**
   * The stream ended. A final line without a terminator is delivered as if it had one
   * (lenient: a peer that writes its last message and exits without `\n` loses nothing).
   */
  end(): void {
    if (this.#skipping) {
      this.#skipping = false;
      return;
    }
    if (this.#pendingBytes > 0) this.#emit(this.#takePending());
  }

  /** Drops any buffered partial line. */
  reset(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#skipping = false;
  }

  /** Bytes `[from, to)` of `buffer` belong to the current line, which continues in a later chunk. */
  #keep(buffer: Buffer, from: number, to: number): void {
    if (this.#skipping) return;
    const size = this.#pendingBytes + (to - from);
    if (size > this.maxMessageSize) {
      this.#oversized(size);
      return;
    }
    this.#pending.push(buffer.subarray(from, to));
    this.#pendingBytes = size;
  }

  /** Bytes `[from, to)` of `buffer` end the current line. */
  #complete(buffer: Buffer, from: number, to: number): void {
    if (this.#skipping) {
      this.#skipping = false;
      return;
    }
    const size = this.#pendingBytes + (to - from);
    if (size > this.maxMessageSize) {
      this.#oversized(size);
      this.#skipping = false;
      return;
    }
    if (this.#pendingBytes === 0) {
      this.#emit(buffer.subarray(from, to));
      return;
    }
    this.#pending.push(buffer.subarray(from, to));
    this.#pendingBytes = size;
    this.#emit(this.#takePending());
  }

  #takePending(): Buffer {
    const parts = this.#pending;
    const total = this.#pendingBytes;
    this.#pending = [];
    this.#pendingBytes = 0;
    const only = parts[0];
    return parts.length === 1 && only !== undefined ? only : Buffer.concat(parts, total);
  }

  #oversized(size: number): void {
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#skipping = true;
    this.#handlers.onOversized(size, this.maxMessageSize);
  }

  #emit(line: Buffer): void {
    let end = line.length;
    if (end > 0 && line[end - 1] === CR) end -= 1;
    if (end === 0) return;
    const text = line.toString('utf8', 0, end);
    if (isBlank(text)) return;
    this.#handlers.onLine(text);
  }
}

/** True for a line of only JSON whitespace; checks the first character before scanning. */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  if (first !== 0x20 && first !== 0x09 && first !== CR) return false;
  return text.trim().length === 0;
}

/**
 * Serializes one message as a frame: compact JSON plus `\n`. `JSON.stringify` never emits
 * a raw newline (newlines inside strings are escaped), so the frame is exactly one line.
 */
export function encodeFrame(message: unknown): string {
  return `${JSON.stringify(message)}\n`;
}
