/**
 * The server side of stdio: reads newline-delimited JSON-RPC from this process's stdin and
 * writes to its stdout (MCP 2025-11-25 basic/transports §stdio).
 *
 * - stdout carries protocol messages only. Log to stderr (`console.error`), never
 *   `console.log`.
 * - Writes honour backpressure: when stdout's buffer is full, later messages wait for
 *   `'drain'`, in order.
 * - The transport ends (`sink.onClose` with initiator `remote`) when stdin ends or stdout
 *   breaks (EPIPE: the client went away). A broken pipe is never an uncaught exception.
 * - With the real process streams, `exitOnClose` (default true) makes the process exit
 *   shortly after the transport closed, even when timers or sockets would keep it alive:
 *   a stdio server has no reason to outlive its client, and orphaned servers pile up
 *   otherwise. The exit runs on an unref'd timer (`exitDelayMs`, default 100 ms) after
 *   `sink.onClose`, so a process that is ending anyway is not held up by it. Once stdout is
 *   broken (the client died) nothing can reach the client any more: queued messages fail at
 *   once and the exit follows on the next turn of the event loop, without `exitDelayMs`. A
 *   process with nothing left to run once the close's callbacks are done (no ref'd handle,
 *   request or timer, no `'beforeExit'` listener) exits at once, in the next immediate, and
 *   leaves its ended stdin to the exit instead of destroying it first; one
 *   whose event loop empties before the delay ends then, through `process.exit()` once its
 *   `'beforeExit'` listeners started no new work. The session is always closed first (MCP
 *   2025-11-25, Lifecycle §Shutdown: on stdio the client closes the server's stdin, then
 *   waits for it to exit). Set `exitOnClose: false` to decide yourself.
 */
import type { Readable, Writable } from 'node:stream';
import {
  ConnectionClosedError,
  InvalidArgumentError,
  InvalidStateError,
  MessageTooLargeError,
  TransportError,
  parseJson,
  systemClock,
  type Clock,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
} from '@statemcp/protocol';
import { FrameWriter } from './frame-writer.js';
import { LineFramer, encodeFrame } from './line-framer.js';
import { settleWithin } from './timeouts.js';

/** Options of {@link StdioServerTransport}. */
export interface StdioServerTransportOptions {
  /** Stream to read from. Default `process.stdin`. */
  stdin?: Readable;
  /** Stream to write to. Default `process.stdout`. */
  stdout?: Writable;
  /** Largest accepted line from the client, in bytes. Default 64 MiB; beyond it the transport closes with `MessageTooLargeError`. */
  maxMessageSize?: number;
  /**
   * Exit the process after the transport closed, even if timers keep it alive.
   * Default: true when both streams are the process's own, false otherwise.
   */
  exitOnClose?: boolean;
  /** Delay between `sink.onClose` and the exit, for last cleanup. Default 100 ms. */
  exitDelayMs?: number;
  /** On close, how long queued messages may take to flush to stdout. Default 2000 ms. */
  flushTimeoutMs?: number;
  /** Timers (the flush bound, the exit delay): the protocol `Clock`; tests pass a `SimulatedClock`. */
  clock?: Clock;
}

/** Where the server transport is in its life. */
export type StdioServerStatus = 'idle' | 'open' | 'closing' | 'closed';

type ServerState =
  | { kind: 'idle' }
  | { kind: 'open'; sink: TransportSink }
  | { kind: 'closing'; sink: TransportSink; done: Promise<void> }
  | { kind: 'closed' };

const DEFAULT_EXIT_DELAY_MS = 100;
const DEFAULT_FLUSH_TIMEOUT_MS = 2000;

/**
 * Serves MCP over the current process's stdin/stdout.
 *
 * @example
 * ```ts
 * import { McpServer } from '@statemcp/server';
 * import { StdioServerTransport } from '@statemcp/stdio-transport';
 *
 * const server = new McpServer({ name: 'example', version: '1.0.0' });
 * await server.connect(new StdioServerTransport());
 * console.error('server ready'); // logs go to stderr; stdout is the protocol channel
 * ```
 */
export class StdioServerTransport implements Transport {
  readonly canSendRequests = true;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #usesProcessStreams: boolean;
  readonly #exitOnClose: boolean;
  readonly #exitDelayMs: number;
  readonly #flushTimeoutMs: number;
  readonly #clock: Clock;
  readonly #framer: LineFramer;
  readonly #writer: FrameWriter;
  #state: ServerState = { kind: 'idle' };
  /** stdout failed with EPIPE or was destroyed: the client is gone. */
  #stdoutBroken = false;

  constructor(options: StdioServerTransportOptions = {}) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#usesProcessStreams = this.#stdin === process.stdin && this.#stdout === process.stdout;
    this.#exitOnClose = options.exitOnClose ?? this.#usesProcessStreams;
    this.#exitDelayMs = options.exitDelayMs ?? DEFAULT_EXIT_DELAY_MS;
    this.#flushTimeoutMs = options.flushTimeoutMs ?? DEFAULT_FLUSH_TIMEOUT_MS;
    this.#clock = options.clock ?? systemClock;
    if (!(this.#exitDelayMs >= 0) || !(this.#flushTimeoutMs >= 0)) {
      throw new InvalidArgumentError('exitDelayMs and flushTimeoutMs must be non-negative');
    }
    this.#framer = new LineFramer(
      {
        onLine: (text) => this.#deliver(text),
        onOversized: (size, max) =>
          void this.#shutdown('error', new MessageTooLargeError(`A message from the client exceeded ${max} bytes (at least ${size} bytes)`)),
      },
      options.maxMessageSize === undefined ? {} : { maxMessageSize: options.maxMessageSize },
    );
    this.#writer = new FrameWriter(this.#stdout, (cause) => new ConnectionClosedError('stdout is closed', { cause }));
  }

  /** Where the transport is in its life. */
  get status(): StdioServerStatus {
    return this.#state.kind;
  }

  /** Begins reading stdin. */
  async start(sink: TransportSink): Promise<void> {
    if (this.#state.kind !== 'idle') {
      throw new InvalidStateError('StdioServerTransport.start() can be called only once', this.#state.kind);
    }
    this.#state = { kind: 'open', sink };
    // Installed for good: a late EPIPE on stdout must never become an uncaught exception.
    this.#stdout.on('error', this.#onStdoutError);
    this.#stdin.on('error', this.#onStdinError);
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    if (this.#stdin.readableEnded) this.#onEnd();
  }

  /**
   * Writes one message to stdout; resolves once it is handed to the OS. Not `async`: the
   * writer's own promise is returned, so a message costs no extra promise and microtask hops.
   */
  send(message: JsonRpcMessage): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
        return Promise.reject(new InvalidStateError('StdioServerTransport.send() before start()', state.kind));
      case 'closing':
      case 'closed':
        return Promise.reject(new ConnectionClosedError('The stdio transport is closed'));
      case 'open': {
        let frame: string;
        try {
          frame = encodeFrame(message);
        } catch (error) {
          return Promise.reject(new InvalidArgumentError('The message cannot be serialized as JSON', { cause: error }));
        }
        return this.#writer.write(frame);
      }
    }
  }

  /**
   * Stops reading stdin, flushes queued messages (bounded by `flushTimeoutMs`) and reports
   * the close. Streams passed in the options are ended; the process's own stdout is left to
   * the process exit. Idempotent.
   */
  async close(): Promise<void> {
    return this.#shutdown('local', undefined);
  }

  readonly #onData = (chunk: Buffer | string): void => {
    this.#framer.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  };

  readonly #onEnd = (): void => {
    if (this.#state.kind !== 'open') return;
    if (this.#usesProcessStreams && this.#exitOnClose) {
      // Nothing more to read: unref'd so it no longer holds the event loop, and kept open, since
      // the process is about to exit (`#scheduleExit` destroys it when the exit has to wait).
      (this.#stdin as { unref?: () => void }).unref?.();
      keepOpenAfterEnd(this.#stdin);
    }
    this.#framer.end();
    void this.#shutdown('remote', undefined);
  };

  readonly #onStdinError = (error: Error): void => {
    void this.#shutdown('error', new TransportError(`stdin failed: ${error.message}`, { cause: error }));
  };

  readonly #onStdoutError = (error: Error): void => {
    const code = (error as { code?: unknown }).code;
    // EPIPE / a destroyed pipe: the client went away. That is a remote close, not a crash.
    if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ECONNRESET') {
      // The frame writer has already failed every queued frame (its own 'error' listener).
      this.#stdoutBroken = true;
      void this.#shutdown('remote', undefined);
    } else {
      void this.#shutdown('error', new TransportError(`stdout failed: ${error.message}`, { cause: error }));
    }
  };

  #deliver(text: string): void {
    const state = this.#state;
    if (state.kind !== 'open') return;
    const parsed = parseJson(text);
    try {
      if (parsed.ok) state.sink.onMessage(parsed.value);
      else state.sink.onMalformed?.(text, parsed.reason);
    } catch (error) {
      try {
        state.sink.onError?.(error instanceof Error ? error : new Error(String(error)));
      } catch {
        // A failing sink must not throw into the stream's 'data' handler.
      }
    }
  }

  #shutdown(initiator: TransportCloseInfo['initiator'], error: Error | undefined): Promise<void> {
    const state = this.#state;
    switch (state.kind) {
      case 'idle':
        this.#state = { kind: 'closed' };
        return Promise.resolve();
      case 'closing':
        return state.done;
      case 'closed':
        return Promise.resolve();
      case 'open': {
        const done = this.#finish(state.sink, initiator, error);
        this.#state = { kind: 'closing', sink: state.sink, done };
        return done;
      }
    }
  }

  async #finish(sink: TransportSink, initiator: TransportCloseInfo['initiator'], error: Error | undefined): Promise<void> {
    // An ended stdin (the client closed it: the usual end) emits no more data, and its 'close'
    // listener returns at once now that the transport is closing: nothing to detach or pause.
    if (!this.#stdin.readableEnded) {
      this.#stdin.off('data', this.#onData);
      this.#stdin.off('end', this.#onEnd);
      this.#stdin.off('close', this.#onEnd);
      if (!this.#stdin.destroyed) this.#stdin.pause();
    }
    this.#framer.reset();
    // Nothing queued (the usual end of a session): no flush bound to arm, no idle promise to make.
    await (this.#writer.pending === 0 ? undefined : settleWithin(this.#clock, this.#writer.whenIdle(), this.#flushTimeoutMs));
    this.#writer.fail(() => new ConnectionClosedError('The stdio transport is closed'));
    if (this.#stdout !== process.stdout && !this.#stdout.writableEnded) {
      try {
        this.#stdout.end();
      } catch {
        // Already unusable.
      }
    }
    this.#state = { kind: 'closed' };
    const info: TransportCloseInfo = { initiator };
    if (error !== undefined) info.error = error;
    try {
      sink.onClose(info);
    } catch {
      // The exit below must still happen.
    }
    if (this.#exitOnClose) this.#scheduleExit(initiator, error);
  }

  #scheduleExit(initiator: TransportCloseInfo['initiator'], error: Error | undefined): void {
    if (initiator === 'error' && error !== undefined) {
      process.stderr.write(`MCP stdio server: closing after a transport error: ${error.message}\n`);
    }
    const exit = (): void => {
      if (initiator === 'error' && process.exitCode === undefined) process.exit(1);
      else process.exit();
    };
    // The exit has to wait (or `close()` came first): first the ended stdin is destroyed, as Node
    // would have done after its 'end'. Then an unref'd timer, so a process ending anyway is not held up.
    const armSafetyNet = (): void => {
      if (this.#usesProcessStreams && this.#stdin.readableEnded && !this.#stdin.destroyed) this.#stdin.destroy();
      void this.#clock.setTimeout(exit, this.#stdoutBroken ? 0 : this.#exitDelayMs);
    };
    if (!this.#usesProcessStreams) {
      armSafetyNet();
      return;
    }
    // The process's own pipes no longer hold the event loop (what was queued is written by
    // now): a server with nothing else to do ends at once instead of waiting for the timer.
    for (const stream of [this.#stdin, this.#stdout] as unknown as { unref?: () => void }[]) stream.unref?.();
    exitOnceIdle(exit, armSafetyNet);
  }
}

/**
 * Stops Node from destroying `stdin` right after its `'end'` listeners return (the stream's
 * `autoDestroy`, Node's stream docs, `new stream.Readable([options])`). For a socket that destroy
 * costs 0.7–1.1 ms, most of it creating `process.stderr` for a check inside `Socket._destroy`
 * (tooling/bench/profiling/README.md, "stdio shutdown"), on the path of a process that is about
 * to exit. The option has no public setter once the stream exists, so the stream's own state is
 * set, only when it holds that boolean (Node's streams, and Bun's and Deno's copies of them);
 * otherwise nothing changes. The exit path destroys the stream itself unless the process exits
 * at once (under Bun it never does: see {@link nothingLeft}).
 */
function keepOpenAfterEnd(stream: Readable): void {
  const state = (stream as { _readableState?: { autoDestroy?: unknown } })._readableState;
  if (!stream.destroyed && typeof state?.autoDestroy === 'boolean') state.autoDestroy = false;
}

/**
 * Runs once the microtasks queued by the close (the application's close callbacks included)
 * are done: when nothing is left that could run later ({@link nothingLeft}) and no
 * `'beforeExit'` listener waits for the loop to empty, the loop would empty now and the
 * process end, so `exit` runs at once and the safety-net timer is never armed (a process's
 * first timer costs ≈0.2 ms). Otherwise the safety net is armed and the exit waits for the
 * loop to empty.
 */
function exitOnceIdle(exit: () => void, armSafetyNet: () => void): void {
  setImmediate(() => {
    if (process.listenerCount('beforeExit') === 0 && nothingLeft()) {
      exit();
      return;
    }
    armSafetyNet();
    exitWhenLoopEmpties(exit);
  });
}

/**
 * True when no ref'd handle, request, timer or immediate is listed (the list also names idle
 * handles, so a false answer only means "maybe busy"). A `process.stderr` the application
 * created (its logs) is a ref'd pipe; idle, it holds no work, so it is unref'd and the list
 * read again. Bun (1.x) answers an empty list whatever is pending, so there the answer is
 * always "maybe busy" and the exit waits for the loop to empty as before.
 */
function nothingLeft(): boolean {
  if (typeof process.versions.bun === 'string' || typeof process.getActiveResourcesInfo !== 'function') return false;
  if (process.getActiveResourcesInfo().length === 0) return true;
  const stderr = process.stderr as { writableLength: number; unref?: () => void };
  if (stderr.writableLength !== 0 || stderr.unref === undefined) return false;
  stderr.unref();
  return process.getActiveResourcesInfo().length === 0;
}

/**
 * Calls `exit` once the event loop has emptied and the `'beforeExit'` listeners (the
 * application's, whenever registered) started no new work: `process.exit()` then skips the
 * environment and isolate teardown of a natural exit, which costs a process that loaded an
 * SDK several ms. What `getActiveResourcesInfo()` lists when `'beforeExit'` fires is inert
 * (the loop is empty: ref'd handles doing nothing, such as an idle stderr pipe); the check
 * runs in an immediate, after every listener and the microtasks they queued, and exits only
 * when nothing was added. Otherwise the new work runs and the next `'beforeExit'` checks again.
 */
function exitWhenLoopEmpties(exit: () => void): void {
  process.prependListener('beforeExit', () => {
    const inert = process.getActiveResourcesInfo().join();
    setImmediate(() => {
      if (process.getActiveResourcesInfo().join() === inert) exit();
    });
  });
}

