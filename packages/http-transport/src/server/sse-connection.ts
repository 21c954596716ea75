/**
 * One open SSE *connection*: the server writes encoded event blocks into it, and one of the
 * two front doors carries them to the client. A connection is not a logical stream: a logical
 * stream (one POST's replies, or the standalone GET stream) can live across several
 * connections when the client resumes with `Last-Event-ID` (MCP 2025-11-25 basic/transports
 * §Streamable HTTP).
 *
 * Where the bytes go is the connection's target, chosen once by the front door that answers:
 *
 * ```
 *  unattached ──attach(res)──▶ node      node:http: blocks are written straight to the
 *      │                                 `ServerResponse` (no web stream in between)
 *      ├──────.response──────▶ web       fetch handlers: a web `Response` whose body is a
 *      │                                 `ReadableStream` the connection enqueues into
 *      └──────pipeTo(sink)───▶ sink      the cluster relay (`relay-exchange.ts`): blocks go
 *                                        to the bus as strings, no web stream in between
 * ```
 *
 * Blocks written before the target is chosen wait in order and are handed over at once
 * (node:http then sends the headers and those events in one write). A stream whose first event
 * is on its way (a priming event waiting for its event store's write) holds its headers for it
 * ({@link SseConnection.holdHead}): on node:http they would otherwise leave alone, one more
 * socket write and one more wake-up of the client per request.
 *
 * Unread bytes are bounded (`maxBufferedBytes`): the web body's queue, or the bytes node:http
 * has not yet handed to the kernel. A client that stops reading fills them, and
 * {@link SseConnection.send} then waits until there is room again: the sender feels
 * backpressure instead of the server buffering without bound. A connection that stays full
 * past `stalledTimeoutMs` is abandoned (its unread bytes dropped, the connection ended); with an
 * event store its events can be resumed on a new connection.
 *
 * The client going away shows up as the response's `close` (node:http) or the body's `cancel`
 * (Bun, Deno and workers cancel a fetch handler's body), reported once through `onCancel`.
 */
import type { ServerResponse } from 'node:http';
import { systemClock, type Clock } from '@statemcp/protocol';
import { SSE_RESPONSE_HEADERS, encodeSseComment } from '../shared/sse-encode.js';
import { KeepAliveSweeper, type KeepAliveTarget } from './keep-alive-sweeper.js';

const encoder = new TextEncoder();

/** Default bound of one connection's unread bytes. */
export const DEFAULT_SSE_BUFFER_BYTES = 1024 * 1024;

/** Options of an {@link SseConnection}. */
export interface SseConnectionOptions {
  readonly headers?: Record<string, string>;
  /**
   * Interval of comment keep-alives, ms; 0 disables. The connections on one clock with one
   * interval share a {@link KeepAliveSweeper}'s timer; each gets its comment every interval.
   */
  readonly keepAliveMs?: number;
  /** Unread bytes the connection holds before {@link SseConnection.send} waits. */
  readonly maxBufferedBytes?: number;
  /** How long {@link SseConnection.send} waits for room before abandoning the connection, ms. Default 30 000. */
  readonly stalledTimeoutMs?: number;
  readonly clock?: Clock;
}

/**
 * Where a relayed connection's blocks go ({@link SseConnection.pipeTo}): the owner of a session
 * publishes them to the instance that relayed the request. The bus has no backpressure, so the
 * connection always has room.
 */
export interface SseSink {
  write(block: string): void;
  /** The server ended the connection. */
  end(): void;
  /** The connection was abandoned (`reason`): what was not delivered is dropped. */
  fail(reason: Error): void;
}

/** What became of one {@link SseConnection.send}. */
export type SseSendOutcome = 'written' | 'closed' | 'abandoned';

/** How a connection ended before a front door took it. */
type EarlyEnd = { readonly kind: 'closed' } | { readonly kind: 'abandoned'; readonly reason: Error };

/** Where the blocks of a connection go. */
type SseTarget =
  | { readonly kind: 'unattached'; readonly blocks: string[]; bytes: number; end: EarlyEnd | undefined }
  | { readonly kind: 'web'; readonly response: Response; readonly controller: ReadableStreamDefaultController<Uint8Array> }
  | { readonly kind: 'node'; readonly res: ServerResponse }
  | { readonly kind: 'sink'; readonly sink: SseSink };

export class SseConnection implements KeepAliveTarget {
  /** Called once when the client disconnects (not when the server closes the connection). */
  onCancel: (() => void) | undefined;
  /** Called once when the connection ends, whoever ended it (the server, the client, a stall). */
  onEnd: (() => void) | undefined;
  readonly #headers: Record<string, string>;
  readonly #maxBufferedBytes: number;
  readonly #clock: Clock;
  readonly #stalledTimeoutMs: number;
  #target: SseTarget = { kind: 'unattached', blocks: [], bytes: 0, end: undefined };
  #open = true;
  /** Sends this connection's keep-alive comments while it is open. */
  #keepAlive: KeepAliveSweeper | undefined;
  /** Writers waiting for room. */
  #waiters: Array<() => void> | undefined;
  /** True while node:http keeps the headers back for the first block ({@link SseConnection.holdHead}). */
  #headHeld = false;

  constructor(options: SseConnectionOptions = {}) {
    this.#headers = options.headers === undefined ? SSE_RESPONSE_HEADERS : { ...SSE_RESPONSE_HEADERS, ...options.headers };
    this.#maxBufferedBytes = options.maxBufferedBytes ?? DEFAULT_SSE_BUFFER_BYTES;
    this.#clock = options.clock ?? systemClock;
    this.#stalledTimeoutMs = options.stalledTimeoutMs ?? 30_000;
    const keepAliveMs = options.keepAliveMs ?? 0;
    if (keepAliveMs > 0) {
      this.#keepAlive = KeepAliveSweeper.of(this.#clock, keepAliveMs);
      this.#keepAlive.add(this);
    }
  }

  /**
   * The connection as a web `Response` (the fetch front door). Built on first read; from then
   * on the blocks go into its body.
   */
  get response(): Response {
    const target = this.#target;
    if (target.kind === 'web') return target.response;
    if (target.kind !== 'unattached') throw new Error('This SSE connection already has a front door');
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        pull: () => this.#wake(),
        cancel: () => this.#cancelled(),
      },
      { highWaterMark: this.#maxBufferedBytes, size: (chunk) => chunk.byteLength },
    );
    const response = new Response(body, { status: 200, headers: this.#headers });
    this.#target = { kind: 'web', response, controller };
    for (const block of target.blocks) controller.enqueue(encoder.encode(block));
    if (target.end?.kind === 'closed') controller.close();
    else if (target.end?.kind === 'abandoned') controller.error(target.end.reason);
    return response;
  }

  /**
   * Writes the connection to a node:http response (the node front door): headers and any
   * waiting blocks at once, later blocks as they come. A response whose client already left
   * counts as a disconnect.
   */
  attach(res: ServerResponse): void {
    const target = this.#target;
    if (target.kind !== 'unattached') throw new Error('This SSE connection already has a front door');
    this.#target = { kind: 'node', res };
    if (res.destroyed) {
      this.#cancelled();
      return;
    }
    res.writeHead(200, this.#headers);
    res.on('close', () => this.#cancelled());
    res.on('drain', () => this.#wake());
    if (target.end?.kind === 'abandoned') {
      res.destroy();
      return;
    }
    for (const block of target.blocks) res.write(block);
    if (target.end?.kind === 'closed') res.end();
    else if (target.blocks.length === 0) {
      if (!this.#headHeld) res.flushHeaders();
    } else if (this.hasRoom) this.#wake();
  }

  /** The response headers of the connection (status 200). */
  get headers(): Readonly<Record<string, string>> {
    return this.#headers;
  }

  /**
   * Hands the connection to `sink` (the cluster relay): the blocks written so far at once, later
   * ones as they come. Returns what to call when the sink's reader went away (the relaying
   * instance's client left): a disconnect, as node:http's `close`.
   */
  pipeTo(sink: SseSink): () => void {
    const target = this.#target;
    if (target.kind !== 'unattached') throw new Error('This SSE connection already has a front door');
    this.#target = { kind: 'sink', sink };
    for (const block of target.blocks) sink.write(block);
    if (target.end?.kind === 'closed') sink.end();
    else if (target.end?.kind === 'abandoned') sink.fail(target.end.reason);
    return () => this.#cancelled();
  }

  /**
   * The first block is coming (a priming event, written once its event store answers): node:http
   * sends the headers with it instead of alone. The first {@link write} or {@link close} ends the
   * hold, and so does `pending` failing (the headers then leave alone). A web `Response` is
   * unaffected: its runtime sends the head.
   */
  holdHead(pending: Promise<unknown>): void {
    if (this.#target.kind === 'node') return;
    this.#headHeld = true;
    pending.catch(() => {
      if (!this.#headHeld) return;
      this.#headHeld = false;
      const target = this.#target;
      if (this.#open && target.kind === 'node' && !target.res.destroyed) target.res.flushHeaders();
    });
  }

  /** True until the server closed it or the client went away. */
  get open(): boolean {
    return this.#open;
  }

  /** True while the unread bytes are within the bound. */
  get hasRoom(): boolean {
    const target = this.#target;
    switch (target.kind) {
      case 'unattached':
        return target.bytes < this.#maxBufferedBytes;
      case 'web': {
        const size = target.controller.desiredSize;
        return size === null || size > 0;
      }
      case 'node':
        return target.res.writableLength < this.#maxBufferedBytes;
      case 'sink':
        return true;
    }
  }

  /** Writes an encoded block. Returns false (and writes nothing) once closed. */
  write(block: string): boolean {
    if (!this.#open) return false;
    this.#headHeld = false;
    const target = this.#target;
    try {
      switch (target.kind) {
        case 'unattached':
          target.blocks.push(block);
          // UTF-16 units: an estimate of the bytes, good enough for a bound.
          target.bytes += block.length;
          return true;
        case 'web':
          target.controller.enqueue(encoder.encode(block));
          return true;
        case 'node':
          if (target.res.destroyed) throw new Error('destroyed');
          target.res.write(block);
          return true;
        case 'sink':
          target.sink.write(block);
          return true;
      }
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
    await new Promise<void>((resolve) => (this.#waiters ??= []).push(resolve));
    this.#clock.clearTimeout(deadline);
    return abandoned ? 'abandoned' : 'written';
  }

  /** Ends the connection from the server side. Idempotent; does not call `onCancel`. */
  close(): void {
    if (!this.#open) return;
    this.#stop();
    const target = this.#target;
    try {
      switch (target.kind) {
        case 'unattached':
          target.end = { kind: 'closed' };
          break;
        case 'web':
          target.controller.close();
          break;
        case 'node':
          target.res.end();
          break;
        case 'sink':
          target.sink.end();
          break;
      }
    } catch {
      // already errored or closed by the consumer
    }
  }

  /**
   * Ends a connection whose reader stopped reading: its unread bytes are dropped (the body
   * errors, or the node:http response is destroyed), and writers waiting for room are released.
   */
  abandon(reason: Error): void {
    if (!this.#open) return;
    this.#stop();
    const target = this.#target;
    try {
      switch (target.kind) {
        case 'unattached':
          target.blocks.length = 0;
          target.bytes = 0;
          target.end = { kind: 'abandoned', reason };
          break;
        case 'web':
          target.controller.error(reason);
          break;
        case 'node':
          target.res.destroy();
          break;
        case 'sink':
          target.sink.fail(reason);
          break;
      }
    } catch {
      // already errored or closed by the consumer
    }
  }

  /** The client went away (body cancelled, or the node:http response closed before we ended it). */
  #cancelled(): void {
    if (!this.#open) return;
    this.#stop();
    this.onCancel?.();
  }

  #wake(): void {
    const waiters = this.#waiters;
    if (waiters === undefined) return;
    this.#waiters = undefined;
    for (const resolve of waiters) resolve();
  }

  /** Called by the sweeper every keep-alive interval while the connection is open. */
  sendKeepAlive(): void {
    // A full queue needs no keep-alive: there are bytes in flight already.
    if (this.hasRoom) this.write(encodeSseComment());
  }

  #stop(): void {
    this.#open = false;
    this.#keepAlive?.delete(this);
    this.#keepAlive = undefined;
    this.#wake();
    const onEnd = this.onEnd;
    this.onEnd = undefined;
    onEnd?.();
  }
}
