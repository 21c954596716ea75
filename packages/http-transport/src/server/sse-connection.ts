/**
 * One open SSE *connection*: a web `Response` whose body is a `ReadableStream` the server
 * writes into. A connection is not a logical stream: a logical stream (one POST's replies,
 * or the standalone GET stream) can live across several connections when the client
 * resumes with `Last-Event-ID` (digest §5.2).
 *
 * The body's queue is bounded in bytes (`maxBufferedBytes`). The node:http front door reads
 * it only as fast as the socket drains, so a client that stops reading fills the queue, and
 * {@link SseConnection.send} then waits until it has room again: the sender feels
 * backpressure instead of the server buffering without bound. A connection that stays full
 * past `stalledTimeoutMs` is abandoned (its unread bytes dropped, the response ended); with an
 * event store its events can be resumed on a new connection.
 *
 * The client going away shows up as the stream's `cancel` (the node:http front door cancels
 * the body reader when the socket closes; Bun, Deno and workers do the same for fetch
 * handlers), reported once through `onCancel`.
 */
import { systemClock, type Clock, type TimerHandle } from '@statemcp/protocol';
import { SSE_RESPONSE_HEADERS, encodeSseComment } from '../shared/sse-encode.js';

const encoder = new TextEncoder();

/** Default bound of one connection's unread bytes. */
export const DEFAULT_SSE_BUFFER_BYTES = 1024 * 1024;

/** Options of an {@link SseConnection}. */
export interface SseConnectionOptions {
  readonly headers?: Record<string, string>;
  /** Interval of comment keep-alives, ms; 0 disables. */
  readonly keepAliveMs?: number;
  /** Unread bytes the connection holds before {@link SseConnection.send} waits. */
  readonly maxBufferedBytes?: number;
  /** How long {@link SseConnection.send} waits for room before abandoning the connection, ms. Default 30 000. */
  readonly stalledTimeoutMs?: number;
  readonly clock?: Clock;
}

/** What became of one {@link SseConnection.send}. */
export type SseSendOutcome = 'written' | 'closed' | 'abandoned';

export class SseConnection {
  readonly response: Response;
  /** Called once when the client disconnects (not when the server closes the connection). */
  onCancel: (() => void) | undefined;
  readonly #clock: Clock;
  readonly #keepAliveMs: number;
  readonly #stalledTimeoutMs: number;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = true;
  #keepAlive: TimerHandle | undefined;
  /** Writers waiting for room in the queue. */
  #waiters: Array<() => void> = [];

  constructor(options: SseConnectionOptions = {}) {
    this.#clock = options.clock ?? systemClock;
    this.#keepAliveMs = options.keepAliveMs ?? 0;
    this.#stalledTimeoutMs = options.stalledTimeoutMs ?? 30_000;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        pull: () => this.#wake(),
        cancel: () => {
          if (!this.#open) return;
          this.#stop();
          this.onCancel?.();
        },
      },
      { highWaterMark: options.maxBufferedBytes ?? DEFAULT_SSE_BUFFER_BYTES, size: (chunk) => chunk.byteLength },
    );
    this.response = new Response(body, { status: 200, headers: { ...SSE_RESPONSE_HEADERS, ...options.headers } });
    this.#scheduleKeepAlive();
  }

  /** True until the server closed it or the client went away. */
  get open(): boolean {
    return this.#open;
  }

  /** True while the unread bytes are within the bound. */
  get hasRoom(): boolean {
    const size = this.#controller?.desiredSize;
    return size === null || size === undefined || size > 0;
  }

  /** Writes an encoded block. Returns false (and writes nothing) once closed. */
  write(block: string): boolean {
    if (!this.#open || this.#controller === undefined) return false;
    try {
      this.#controller.enqueue(encoder.encode(block));
      return true;
    } catch {
      this.#stop();
      return false;
    }
  }

  /**
   * Writes an encoded block, then waits while the unread bytes exceed the bound. Past
   * `stalledTimeoutMs` without room the connection is abandoned. `closed`: nothing was written.
   */
  async send(block: string): Promise<SseSendOutcome> {
    if (!this.write(block)) return 'closed';
    if (this.hasRoom) return 'written';
    let abandoned = false;
    const deadline = this.#clock.setTimeout(() => {
      abandoned = true;
      this.abandon(new Error(`The client read nothing from this SSE stream for ${this.#stalledTimeoutMs} ms`));
    }, this.#stalledTimeoutMs);
    await new Promise<void>((resolve) => this.#waiters.push(resolve));
    this.#clock.clearTimeout(deadline);
    return abandoned ? 'abandoned' : 'written';
  }

  /** Ends the connection from the server side. Idempotent; does not call `onCancel`. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.close();
    } catch {
      // already errored or closed by the consumer
    }
  }

  /**
   * Ends a connection whose reader stopped reading: its unread bytes are dropped (erroring
   * the body ends the response), and writers waiting for room are released.
   */
  abandon(reason: Error): void {
    if (!this.#open) return;
    this.#stop();
    try {
      this.#controller?.error(reason);
    } catch {
      // already errored or closed by the consumer
    }
  }

  #wake(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  #scheduleKeepAlive(): void {
    if (this.#keepAliveMs <= 0 || !this.#open) return;
    this.#keepAlive = this.#clock.setTimeout(() => {
      this.#keepAlive = undefined;
      // A full queue needs no keep-alive: there are bytes in flight already.
      if (this.hasRoom) this.write(encodeSseComment());
      this.#scheduleKeepAlive();
    }, this.#keepAliveMs);
  }

  #stop(): void {
    this.#open = false;
    if (this.#keepAlive !== undefined) this.#clock.clearTimeout(this.#keepAlive);
    this.#keepAlive = undefined;
    this.#wake();
  }
}
