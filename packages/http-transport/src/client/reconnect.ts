/**
 * Reconnection policy for SSE streams: exponential backoff with jitter, the server's
 * `retry:` honoured exactly, and a persistent attempt counter that is reset only when a
 * stream makes progress (delivers an event), never merely because a connection opened.
 * That last rule is what stops the two classic failures: reconnecting forever to a server
 * that accepts and immediately closes, and giving up on a healthy server that polls.
 *
 * All waiting goes through the transport's injected protocol `Clock`, so tests never sleep.
 */

/** How SSE streams are reconnected. */
export interface ReconnectOptions {
  /** Delay before the first reconnection attempt, in ms. Default 1000. */
  initialDelayMs?: number;
  /** Upper bound of the backoff delay, in ms. Default 30000. */
  maxDelayMs?: number;
  /** Growth factor per attempt. Default 2. */
  factor?: number;
  /**
   * Fraction of the delay that is randomised: the wait is uniformly drawn from
   * `[delay × (1 − jitter), delay]`. 0 disables jitter. Default 0.5.
   */
  jitter?: number;
  /**
   * Reconnection attempts without progress before the stream is declared dead. Default 5.
   * 0 disables reconnection.
   */
  maxRetries?: number;
}

/** {@link ReconnectOptions} with every default filled in. */
export type ResolvedReconnectOptions = Required<ReconnectOptions>;

/** The SSE resumption back-off used when `reconnect` is not given: 1 s doubling to 30 s, jitter 0.5, 5 retries. */
export const DEFAULT_RECONNECT_OPTIONS: ResolvedReconnectOptions = Object.freeze({
  initialDelayMs: 1000,
  maxDelayMs: 30_000,
  factor: 2,
  jitter: 0.5,
  maxRetries: 5,
});

/** Fills in defaults and rejects nonsensical values. */
export function resolveReconnectOptions(options: ReconnectOptions | undefined): ResolvedReconnectOptions {
  const resolved: ResolvedReconnectOptions = { ...DEFAULT_RECONNECT_OPTIONS, ...stripUndefined(options ?? {}) };
  if (!(resolved.initialDelayMs >= 0)) throw new RangeError('reconnect.initialDelayMs must be >= 0');
  if (!(resolved.maxDelayMs >= resolved.initialDelayMs)) throw new RangeError('reconnect.maxDelayMs must be >= initialDelayMs');
  if (!(resolved.factor >= 1)) throw new RangeError('reconnect.factor must be >= 1');
  if (!(resolved.jitter >= 0 && resolved.jitter <= 1)) throw new RangeError('reconnect.jitter must be within [0, 1]');
  if (!(Number.isInteger(resolved.maxRetries) && resolved.maxRetries >= 0)) {
    throw new RangeError('reconnect.maxRetries must be a non-negative integer');
  }
  return resolved;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * The wait before reconnection attempt number `attempt` (1-based). When the server sent a
 * `retry:` value it is used exactly (spec: the client MUST wait that long); otherwise
 * `min(max, initial × factor^(attempt−1))`, reduced by up to `jitter` of itself.
 *
 * @param random a source of numbers in `[0, 1)`; injectable for tests.
 */
export function reconnectDelay(
  attempt: number,
  options: ResolvedReconnectOptions,
  serverRetryMs: number | undefined,
  random: () => number = Math.random,
): number {
  if (serverRetryMs !== undefined) return serverRetryMs;
  const exponential = options.initialDelayMs * options.factor ** Math.max(0, attempt - 1);
  const base = Math.min(options.maxDelayMs, exponential);
  return Math.round(base * (1 - options.jitter * random()));
}

/**
 * One stream's reconnection bookkeeping: the persistent attempt counter and the server's
 * last `retry:` value.
 */
export class ReconnectTracker {
  #attempts = 0;
  #serverRetryMs: number | undefined;

  constructor(
    private readonly options: ResolvedReconnectOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** Attempts made since the last progress. */
  get attempts(): number {
    return this.#attempts;
  }

  /** The server's latest `retry:` value, if any. */
  get serverRetryMs(): number | undefined {
    return this.#serverRetryMs;
  }

  set serverRetryMs(ms: number | undefined) {
    this.#serverRetryMs = ms;
  }

  /** The stream delivered something: the next failure starts the backoff afresh. */
  progress(): void {
    this.#attempts = 0;
  }

  /**
   * Counts one more attempt and returns its delay, or `undefined` when the budget is spent
   * (the stream is dead).
   */
  next(): { attempt: number; delayMs: number } | undefined {
    if (this.#attempts >= this.options.maxRetries) return undefined;
    this.#attempts++;
    return { attempt: this.#attempts, delayMs: reconnectDelay(this.#attempts, this.options, this.#serverRetryMs, this.random) };
  }
}
