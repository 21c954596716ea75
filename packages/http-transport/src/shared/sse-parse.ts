/**
 * Server-Sent Events parsing, as the WHATWG HTML standard's "event stream interpretation"
 * describes it: lines end in CRLF, LF or CR; `:` starts a comment; `data` lines are joined
 * with LF; `id` moves the last-event-id cursor (ignored when it contains NUL); `retry` sets
 * the reconnection delay when it is all ASCII digits; a blank line dispatches. An event
 * whose data buffer is empty is not dispatched, but its `id` still moves the cursor — that
 * is what lets a Streamable HTTP server send a "priming" event that only carries an id.
 *
 * The parser is incremental and linear: each character is examined once, whatever the
 * chunking of the input. Use {@link SseParser} directly for decoded text, or
 * {@link readSseStream} for a `fetch` response body.
 *
 * What it holds is bounded: an event still being read (its data, and a line whose end has not
 * arrived) may not grow past `maxEventSize` characters, or `feed` throws
 * `MessageTooLargeError` — a server that never ends a line or an event cannot make the reader
 * buffer without end.
 */
import { tooLargeError } from '@statemcp/protocol/internal';


/** One dispatched event. */
export interface SseEvent {
  /** The event type; `message` when the stream did not name one. */
  readonly type: string;
  /** The data lines joined with `\n`. */
  readonly data: string;
  /** The last event id at dispatch time (`undefined` if none was ever set). */
  readonly lastEventId: string | undefined;
}

/** Options of an {@link SseParser}. */
export interface SseParserOptions {
  /** The cursor of a resumed stream. */
  readonly lastEventId?: string;
  /** The most characters one event may hold while it is read. Default: no bound. */
  readonly maxEventSize?: number;
  /** Names the stream in the error past the bound. */
  readonly source?: string;
}

/** Callbacks of an {@link SseParser}. Only `onEvent` is required. */
export interface SseParserHandlers {
  /** A dispatched event (non-empty data buffer). */
  onEvent(event: SseEvent): void;
  /**
   * The last event id changed at a dispatch (including events with no data, such as a
   * priming event). An empty `id:` field resets it to `undefined`.
   */
  onLastEventId?(id: string | undefined): void;
  /** A valid `retry:` field, in milliseconds. */
  onRetry?(ms: number): void;
  /** A comment line (without the leading colon), e.g. a keep-alive. */
  onComment?(text: string): void;
}

const LF = 0x0a;
const CR = 0x0d;

/**
 * Incremental SSE parser over decoded text.
 *
 * @example
 * ```ts
 * const parser = new SseParser({ onEvent: (e) => console.log(e.type, e.data) });
 * parser.feed('event: endpoint\ndata: /messages?s=1\n\n');
 * ```
 */
export class SseParser {
  readonly #handlers: SseParserHandlers;
  /** Unconsumed text: the start of a line whose terminator has not arrived yet. */
  #pending = '';
  /** True when the previous chunk ended with CR, so a leading LF belongs to that CR. */
  #skipLeadingLf = false;
  #first = true;
  #data = '';
  #hasData = false;
  #type = '';
  #idBuffer: string | undefined;
  #lastEventId: string | undefined;
  #sawField = false;

  /** The most characters an event being read may hold (data plus the unfinished line). */
  readonly #maxEventSize: number;
  /** Names the stream in the error past the bound, e.g. `the SSE stream of GET https://…`. */
  readonly #source: string;

  constructor(handlers: SseParserHandlers, options?: SseParserOptions) {
    this.#handlers = handlers;
    this.#idBuffer = options?.lastEventId;
    this.#lastEventId = options?.lastEventId;
    this.#maxEventSize = options?.maxEventSize ?? Number.POSITIVE_INFINITY;
    this.#source = options?.source ?? 'the SSE stream';
  }

  /** The cursor to resume from with `Last-Event-ID`. */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  /** Feeds the next piece of decoded text. */
  feed(chunk: string): void {
    let text = chunk;
    if (this.#first && text.length > 0) {
      this.#first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let start = 0;
    if (this.#skipLeadingLf && text.length > 0) {
      this.#skipLeadingLf = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    // Only the new text is scanned; `#pending` never contains a terminator.
    for (let index = start; index < text.length; index++) {
      const code = text.charCodeAt(index);
      if (code !== LF && code !== CR) continue;
      const line = this.#pending.length > 0 ? this.#pending + text.slice(start, index) : text.slice(start, index);
      this.#pending = '';
      this.#line(line);
      if (code === CR) {
        if (index + 1 < text.length) {
          if (text.charCodeAt(index + 1) === LF) index++;
        } else {
          this.#skipLeadingLf = true;
        }
      }
      start = index + 1;
    }
    if (start < text.length) this.#pending += text.slice(start);
    if (this.#pending.length + this.#data.length > this.#maxEventSize) this.#tooLarge();
  }

  #tooLarge(): never {
    this.#pending = '';
    this.#data = '';
    throw tooLargeError(`An SSE event from ${this.#source}`, this.#maxEventSize, 'maxMessageSize');
  }

  /**
   * Ends the stream. An unterminated line is processed as a line, but an event without
   * its blank line is discarded, as the standard requires.
   */
  end(): void {
    if (this.#pending.length > 0) {
      const line = this.#pending;
      this.#pending = '';
      this.#line(line);
    }
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
    this.#sawField = false;
  }

  #line(line: string): void {
    if (line.length === 0) {
      this.#dispatch();
      return;
    }
    const colon = line.indexOf(':');
    if (colon === 0) {
      this.#handlers.onComment?.(line.slice(1).replace(/^ /, ''));
      return;
    }
    let field: string;
    let value: string;
    if (colon < 0) {
      field = line;
      value = '';
    } else {
      field = line.slice(0, colon);
      value = line.charCodeAt(colon + 1) === 0x20 ? line.slice(colon + 2) : line.slice(colon + 1);
    }
    switch (field) {
      case 'data':
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        if (this.#data.length > this.#maxEventSize) this.#tooLarge();
        this.#sawField = true;
        break;
      case 'event':
        this.#type = value;
        this.#sawField = true;
        break;
      case 'id':
        if (!value.includes('\0')) {
          this.#idBuffer = value.length > 0 ? value : undefined;
          this.#sawField = true;
        }
        break;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.#handlers.onRetry?.(Number.parseInt(value, 10));
        break;
      default:
        break;
    }
  }

  #dispatch(): void {
    if (!this.#sawField) return;
    this.#sawField = false;
    if (this.#idBuffer !== this.#lastEventId) {
      this.#lastEventId = this.#idBuffer;
      this.#handlers.onLastEventId?.(this.#lastEventId);
    }
    if (!this.#hasData) {
      this.#type = '';
      return;
    }
    const event: SseEvent = { type: this.#type.length > 0 ? this.#type : 'message', data: this.#data, lastEventId: this.#lastEventId };
    this.#data = '';
    this.#hasData = false;
    this.#type = '';
    this.#handlers.onEvent(event);
  }
}

/**
 * Reads a byte stream (a `fetch` response body) through an {@link SseParser} until it
 * ends, decoding UTF-8 across chunk boundaries. Resolves when the stream ends normally, or
 * as soon as `isComplete` (asked after each chunk) says nothing more is wanted — the rest of
 * the body is then cancelled; rejects with the read error (an `AbortError` when `signal`
 * aborts it).
 */
export async function readSseStream(
  body: ReadableStream<Uint8Array>,
  parser: SseParser,
  signal?: AbortSignal,
  isComplete?: () => boolean,
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder('utf-8');
  const onAbort = (): void => {
    reader.cancel(signal?.reason).catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (isAborted(signal)) throw signal?.reason;
      const { done, value } = await reader.read();
      if (isAborted(signal)) throw signal?.reason;
      if (done) break;
      parser.feed(decoder.decode(value, { stream: true }));
      if (isComplete?.() === true) {
        reader.cancel().catch(() => undefined);
        return;
      }
    }
    const rest = decoder.decode();
    if (rest.length > 0) parser.feed(rest);
    parser.end();
  } catch (error) {
    // A parser that refused the stream (an event past its bound): the rest is not read.
    reader.cancel(error).catch(() => undefined);
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
