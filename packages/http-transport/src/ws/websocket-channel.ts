/**
 * The part both WebSocket transports share: one open `ws` socket carrying one JSON-RPC
 * message per text frame, a bounded close handshake, and exactly one `onClose`.
 *
 * Closing handshake, bounded by a timer:
 *
 * ```
 *   close()                                   peer
 *     │  Close frame (1000) ───────────────────▶ │
 *     │                                          │
 *     │ ◀─────────────────────────── Close frame │
 *     ▼                                          │
 *   'close' event ─▶ sink.onClose({ initiator: 'local' })
 *
 *   no answer within closeTimeoutMs ─▶ socket.terminate() ─▶ 'close' event ─▶ onClose
 * ```
 *
 * `terminate()` skips the handshake and destroys the socket at once.
 */
import {
  ConnectionClosedError,
  TransportError,
  parseJson,
  type InboundContext,
  type JsonRpcMessage,
  type TransportCloseInfo,
  type TransportSink,
  type Clock,
  type TimerHandle,
} from '@statemcp/protocol';
import type WebSocket from 'ws';


/** The WebSocket subprotocol both sides negotiate. A statemcp convention, not part of the MCP spec. */
export const MCP_WEBSOCKET_SUBPROTOCOL = 'mcp';

/** Default bound of the closing handshake, in ms. */
export const DEFAULT_WEBSOCKET_CLOSE_TIMEOUT_MS = 2000;

/** Default largest accepted frame: 4 MiB, the same as the HTTP body limit. */
export const DEFAULT_WEBSOCKET_MAX_PAYLOAD = 4 * 1024 * 1024;

type ChannelState =
  | { kind: 'open' }
  | { kind: 'closing'; initiator: 'local' | 'error'; error: Error | undefined; timer: TimerHandle | undefined }
  | { kind: 'closed' };

/**
 * Wraps one open socket. Internal: the transports own it. Listeners are attached at
 * construction and anything that happens before {@link attach} (frames, close) is queued,
 * so a message sent right after the upgrade is never lost while a server is still wiring
 * its session.
 */
export class WebSocketChannel {
  readonly #socket: WebSocket;
  #sink: TransportSink | undefined;
  #queue: (() => void)[] = [];
  readonly #closeTimeoutMs: number;
  readonly #clock: Clock;
  readonly #context: InboundContext | undefined;
  #state: ChannelState = { kind: 'open' };
  readonly #closed: Promise<void>;
  #resolveClosed!: () => void;

  /** `context` goes with every inbound message (the server side's upgrade request). */
  constructor(socket: WebSocket, closeTimeoutMs: number, clock: Clock, context?: InboundContext) {
    this.#socket = socket;
    this.#context = context;
    this.#clock = clock;
    this.#closeTimeoutMs = closeTimeoutMs;
    this.#closed = new Promise((resolve) => (this.#resolveClosed = resolve));
    socket.on('message', (data, isBinary) => this.#whenAttached(() => this.#onFrame(data, isBinary)));
    socket.on('error', (error) => this.#whenAttached(() => this.#onError(error)));
    socket.on('close', (code, reason) => this.#onClose(code, reason.toString('utf8')));
  }

  /** Starts delivery to `sink`, first replaying whatever arrived before. */
  attach(sink: TransportSink): void {
    if (this.#sink !== undefined) return;
    this.#sink = sink;
    const queued = this.#queue;
    this.#queue = [];
    for (const run of queued) run();
  }

  /** True while the socket is open and no close has begun. */
  get isOpen(): boolean {
    return this.#state.kind === 'open' && this.#socket.readyState === this.#socket.OPEN;
  }

  #whenAttached(run: () => void): void {
    if (this.#sink === undefined) this.#queue.push(run);
    else run();
  }

  /** Resolves when the socket has closed and `onClose` has fired. */
  get closed(): Promise<void> {
    return this.#closed;
  }

  /** Sends one message (or a batch's replies) as one text frame; resolves once `ws` has written it. */
  send(message: JsonRpcMessage | readonly JsonRpcMessage[]): Promise<void> {
    if (this.#state.kind !== 'open' || this.#socket.readyState !== this.#socket.OPEN) {
      return Promise.reject(new ConnectionClosedError('The WebSocket transport is closed'));
    }
    const text = JSON.stringify(message);
    return new Promise((resolve, reject) => {
      this.#socket.send(text, { binary: false }, (error) => {
        if (error) reject(new TransportError(`WebSocket send failed: ${error.message}`, { cause: error }));
        else resolve();
      });
    });
  }

  /** Graceful close: Close frame (`code`, default 1000), then wait for the peer's, then terminate on timeout. */
  close(code = 1000, reason = 'client closing'): Promise<void> {
    this.#beginClose('local', undefined, code, reason);
    return this.#closed;
  }

  /** Forceful close: destroy the socket now. */
  terminate(): Promise<void> {
    if (this.#state.kind === 'open') {
      this.#state = { kind: 'closing', initiator: 'local', error: undefined, timer: undefined };
    }
    this.#socket.terminate();
    return this.#closed;
  }

  #beginClose(initiator: 'local' | 'error', error: Error | undefined, code: number, reason: string): void {
    if (this.#state.kind !== 'open') return;
    const timer = this.#clock.setTimeout(() => this.#socket.terminate(), this.#closeTimeoutMs);
    this.#state = { kind: 'closing', initiator, error, timer };
    try {
      this.#socket.close(code, reason);
    } catch {
      this.#socket.terminate();
    }
  }

  #onFrame(data: WebSocket.RawData, isBinary: boolean): void {
    const sink = this.#sink;
    if (this.#state.kind !== 'open' || sink === undefined) return;
    const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
    if (isBinary) {
      sink.onMalformed?.(text, 'Binary WebSocket frames are not used by this transport; send one JSON-RPC message per text frame');
      return;
    }
    const parsed = parseJson(text);
    if (parsed.ok) sink.onMessage(parsed.value, this.#context);
    else sink.onMalformed?.(text, parsed.reason);
  }

  #onError(error: Error): void {
    const wrapped = new TransportError(`WebSocket error: ${error.message}`, { cause: error });
    if (this.#state.kind === 'open') {
      this.#sink?.onError?.(wrapped);
      this.#beginClose('error', wrapped, 1011, 'transport error');
    } else if (this.#state.kind === 'closing' && this.#state.error === undefined && this.#state.initiator === 'error') {
      this.#state.error = wrapped;
    }
  }

  #onClose(code: number, reason: string): void {
    const state = this.#state;
    if (state.kind === 'closed') return;
    this.#state = { kind: 'closed' };
    const details = { code, reason };
    let info: TransportCloseInfo;
    if (state.kind === 'closing') {
      if (state.timer !== undefined) this.#clock.clearTimeout(state.timer);
      info = state.error !== undefined ? { initiator: state.initiator, error: state.error, details } : { initiator: state.initiator, details };
    } else if (code === 1000 || code === 1001 || code === 1005) {
      info = { initiator: 'remote', details };
    } else {
      info = {
        initiator: 'error',
        error: new ConnectionClosedError(`The WebSocket closed with code ${code}${reason ? ` (${reason})` : ''}`, { details }),
        details,
      };
    }
    this.#whenAttached(() => this.#sink?.onClose(info));
    this.#resolveClosed();
  }
}
