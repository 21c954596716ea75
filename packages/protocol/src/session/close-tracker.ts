/**
 * How a session ends, recorded: the close deadline the machine arms, the transport's close
 * report (its details and cause reach `ConnectionClosedError`s and `CloseInfo`), and the one
 * `CloseInfo` that resolves `session.closed` and reaches `onclose` when the session finalizes.
 */
import { ConnectionClosedError } from '../errors/errors.js';
import type { ConnectionEvent, ConnectionState } from '../machines/connection-types.js';
import type { TransportCloseInfo } from '../transport/transport.js';
import type { Clock, TimerHandle } from './clock.js';
import type { SessionObserver } from './observer.js';
import type { CloseInfo, SessionOptions } from './options.js';

const DEFAULT_CLOSE_DEADLINE_MS = 10_000;

/** One session's close bookkeeping. */
export class CloseTracker {
  readonly #options: SessionOptions;
  readonly #clock: Clock;
  readonly #observer: SessionObserver;
  #deadline: TimerHandle | undefined;
  /** The transport's close report, once it came. */
  #cause: TransportCloseInfo | undefined;
  #info: CloseInfo | undefined;
  /** Made on first read: most sessions end without anyone awaiting them (no promise, no resolver). */
  #closed: Promise<CloseInfo> | undefined;
  #resolve: ((info: CloseInfo) => void) | undefined;

  constructor(options: SessionOptions, clock: Clock, observer: SessionObserver) {
    this.#options = options;
    this.#clock = clock;
    this.#observer = observer;
  }

  /** Resolves once, when the session reaches Terminated (the same promise on every read). */
  get closed(): Promise<CloseInfo> {
    if (this.#closed !== undefined) return this.#closed;
    const info = this.#info;
    this.#closed =
      info !== undefined
        ? Promise.resolve(info)
        : new Promise((resolve) => {
            this.#resolve = resolve;
          });
    return this.#closed;
  }

  /** How the session ended, once finalized. */
  get info(): CloseInfo | undefined {
    return this.#info;
  }

  /** Effect `armCloseDeadline`: someone awaits the close, so the deadline keeps the process alive until it ends. */
  armDeadline(expire: () => void): void {
    const ms = this.#options.closeDeadlineMs ?? DEFAULT_CLOSE_DEADLINE_MS;
    this.#deadline = this.#clock.setTimeout(expire, ms, { keepAlive: true });
  }

  /** Records the transport's close report and returns the machine's event for it. */
  transportClosed(info: TransportCloseInfo): ConnectionEvent {
    this.#cause = info;
    return info.error !== undefined ? { type: 'transportClosed', initiator: info.initiator, error: info.error } : { type: 'transportClosed', initiator: info.initiator };
  }

  /** A `ConnectionClosedError` carrying the transport's close details and cause, when known. */
  closedError(message: string): ConnectionClosedError {
    const info = this.#cause;
    const details = info?.details;
    const cause = info?.error;
    return new ConnectionClosedError(message, {
      ...(details !== undefined ? { details } : {}),
      ...(cause !== undefined ? { cause } : {}),
    });
  }

  /** Effect `finalize`, after the session's own clean-up: clears the deadline, resolves `closed`, calls `onclose`. */
  finalize(state: ConnectionState): void {
    if (this.#deadline !== undefined) this.#clock.clearTimeout(this.#deadline);
    this.#deadline = undefined;
    const reason = state.kind === 'terminated' ? state.reason : 'closed';
    const error = state.kind === 'terminated' ? state.error : undefined;
    const details = this.#cause?.details;
    const info: CloseInfo = { reason, ...(error !== undefined ? { error } : {}), ...(details !== undefined ? { details } : {}) };
    this.#info = info;
    this.#resolve?.(info);
    this.#resolve = undefined;
    try {
      this.#options.onclose?.(info);
    } catch (err) {
      this.#observer.diagnostic('onclose threw', err);
    }
  }
}
