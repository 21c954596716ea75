/**
 * One SSE stream of a Streamable HTTP client session: a POST's response stream (and its
 * resumptions) or the standalone GET stream. The record is its parser's handlers too, so
 * reading a POST's stream builds no handler object or closures of its own; its reconnection
 * bookkeeping is made only when the stream first needs it (a `retry:` or a reconnection).
 */
import { parseJson, type Clock, type RequestId } from '@statemcp/protocol';
import type { ScopedSignal } from './abort-scope.js';
import { ReconnectTracker, type ResolvedReconnectOptions } from './reconnect.js';
import type { StreamState } from './streamable-http-options.js';
import type { SseEvent, SseParserHandlers } from '../shared/sse-parse.js';

/** What a stream hands its messages to, and what its reconnections are paced by. */
export interface SseStreamSink {
  readonly reconnect: ResolvedReconnectOptions;
  readonly random: () => number;
  /** Hands one parsed SSE message to the session. */
  deliver(value: unknown): void;
  malformed(text: string, reason: string): void;
}

export class SseStreamRecord implements SseParserHandlers {
  /** Requests whose responses this stream still owes. */
  readonly pending: Set<RequestId>;
  lastEventId: string | undefined = undefined;
  timer: ReturnType<Clock['setTimeout']> | undefined = undefined;
  state: StreamState;
  #tracker: ReconnectTracker | undefined = undefined;

  constructor(
    readonly role: 'standalone' | 'request',
    readonly requestIds: readonly RequestId[],
    /** Stops the stream's reads: its own signal, or for a POST's stream the POST's. */
    readonly controller: ScopedSignal,
    readonly sink: SseStreamSink,
    state: StreamState,
  ) {
    this.pending = new Set(requestIds);
    this.state = state;
  }

  /** A request stream is complete once every response it owed has arrived. */
  get complete(): boolean {
    return this.role === 'request' && this.pending.size === 0;
  }

  /** Reconnection attempts since the stream's last progress. */
  get attempts(): number {
    return this.#tracker?.attempts ?? 0;
  }

  /** The stream's reconnection bookkeeping, made on first need. */
  get tracker(): ReconnectTracker {
    return (this.#tracker ??= new ReconnectTracker(this.sink.reconnect, this.sink.random));
  }

  onEvent(event: SseEvent): void {
    this.#tracker?.progress();
    if (event.type !== 'message' || event.data.length === 0) return;
    const parsed = parseJson(event.data);
    if (parsed.ok) this.sink.deliver(parsed.value);
    else this.sink.malformed(event.data, parsed.reason);
  }

  onLastEventId(id: string | undefined): void {
    this.lastEventId = id;
    this.#tracker?.progress();
  }

  onRetry(ms: number): void {
    this.tracker.serverRetryMs = ms;
  }
}
