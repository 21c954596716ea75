/**
 * The SSE streams of a Streamable HTTP client session (MCP 2025-11-25 basic/transports §Streamable
 * HTTP): each POST answered with
 * a stream, and the standalone GET stream. A cut stream is resumed with GET +
 * `Last-Event-ID`, waiting exactly the server's `retry:` when it sent one, else backing off
 * exponentially with jitter; the attempt counter survives reconnections and is reset only by
 * progress, so a stream that keeps failing ends as `dead` with a typed error instead of
 * looping (MCP 2025-11-25 basic/transports §Resumability and Redelivery, MCP 2025-11-25
 * basic/transports §Streamable HTTP; lesson 14).
 *
 * A stream that ends before the answers it owed and cannot be resumed reports those request
 * ids as undeliverable; the session settles them with a local error. Nothing here invents a
 * peer's answer.
 */
import { MessageTooLargeError, RedirectRefusedError, TransportError, type Clock, type RequestId } from '@statemcp/protocol';
import { unscopedSignal, type ScopedSignal } from './abort-scope.js';
import { errorForAnswer, fetchAnswer, type HttpAnswer } from './http-answer.js';
import { networkError } from './http-errors.js';
import type { ResolvedReconnectOptions } from './reconnect.js';
import { buildHeaders } from './request-headers.js';
import type { StreamableHttpClientTransportOptions, StreamState } from './streamable-http-options.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from './response-body.js';
import { SseStreamRecord as StreamRecord } from './sse-stream-record.js';
import { SseParser } from '../shared/sse-parse.js';
import { LAST_EVENT_ID_HEADER, PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from '@statemcp/protocol/internal';

/** What the streams need from their transport. */
export interface SseStreamsHost {
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly options: StreamableHttpClientTransportOptions;
  readonly reconnect: ResolvedReconnectOptions;
  readonly clock: Clock;
  readonly random: () => number;
  /** Aborted when the transport closes. */
  readonly lifetime: AbortSignal;
  sessionId(): string | undefined;
  protocolVersion(): string | undefined;
  /** True while the transport may still read streams. */
  isOpen(): boolean;
  /** Hands one parsed SSE message to the session. */
  deliver(value: unknown): void;
  malformed(text: string, reason: string): void;
  error(error: Error): void;
  /** These requests will get no answer: the session settles them. */
  undeliverable(ids: readonly RequestId[], error: Error): void;
  /** The server answered 404 for the session on the standalone stream. */
  sessionExpired(sessionId: string): void;
}

export class SseStreams {
  readonly #host: SseStreamsHost;
  #standalone: StreamRecord | undefined;
  readonly #requestStreams = new Set<StreamRecord>();

  constructor(host: SseStreamsHost) {
    this.#host = host;
  }

  /** The standalone GET stream's state; `undefined` before it was first opened. */
  get standaloneState(): StreamState | undefined {
    return this.#standalone?.state;
  }

  /**
   * Reads the SSE body of a POST that carried `requestIds`, resuming it if it is cut. `post`
   * is the POST's own abort signal: the stream stops through it (no second signal per POST).
   */
  consumeRequestStream(answer: HttpAnswer, requestIds: readonly RequestId[], post?: ScopedSignal): void {
    const record = this.#newRecord('request', requestIds, post);
    this.#requestStreams.add(record);
    this.#setState(record, { kind: 'open', lastEventId: undefined });
    void this.#readStream(record, answer);
  }

  /** Opens the standalone GET stream unless one is open or opening. */
  openStandalone(): void {
    if (this.#host.options.standaloneStream === false) return;
    const current = this.#standalone;
    if (current !== undefined && (current.state.kind === 'open' || current.state.kind === 'connecting' || current.state.kind === 'reconnecting')) {
      return;
    }
    const record = this.#newRecord('standalone', []);
    this.#standalone = record;
    void this.#connectGet(record);
  }

  /** Stops the standalone stream (the session it belonged to is gone). */
  stopStandalone(): void {
    const record = this.#standalone;
    if (record === undefined) return;
    this.#standalone = undefined;
    this.#stop(record);
  }

  /** A response arrived some other way (a JSON body): no stream owes it any more. */
  answered(id: RequestId): void {
    // Checked first: iterating even an empty `Set` allocates an iterator, on every JSON answer.
    if (this.#requestStreams.size === 0) return;
    for (const record of this.#requestStreams) record.pending.delete(id);
  }

  /** The request `id` was cancelled: the stream that owes its answer stops (without reporting it undeliverable). */
  cancelRequest(id: RequestId): void {
    for (const record of this.#requestStreams) {
      if (!record.requestIds.includes(id)) continue;
      this.#requestStreams.delete(record);
      this.#stop(record);
    }
  }

  /** The transport closed: every stream stops. */
  closeAll(): void {
    if (this.#standalone !== undefined) this.#stop(this.#standalone);
    for (const record of this.#requestStreams) this.#stop(record);
    this.#requestStreams.clear();
  }

  #stop(record: StreamRecord): void {
    if (record.timer !== undefined) this.#host.clock.clearTimeout(record.timer);
    record.timer = undefined;
    record.controller.abort();
    record.state = { kind: 'closed' };
  }

  #newRecord(role: 'standalone' | 'request', requestIds: readonly RequestId[], stopper?: ScopedSignal): StreamRecord {
    const controller = stopper ?? unscopedSignal();
    // A record made after the transport closed is stopped from the start.
    if (this.#host.lifetime.aborted && !controller.aborted) controller.abort(this.#host.lifetime.reason);
    return new StreamRecord(role, requestIds, controller, this.#host, { kind: 'connecting', attempt: 0 });
  }

  #setState(record: StreamRecord, state: StreamState): void {
    record.state = state;
    try {
      this.#host.options.onStreamStateChange?.({ stream: record.role, requestIds: record.requestIds, state });
    } catch {
      // A diagnostics callback must not break the transport.
    }
  }

  #isLive(record: StreamRecord): boolean {
    return !record.controller.aborted && this.#host.isOpen();
  }

  /** GET the endpoint: the standalone stream, or a resumption (`Last-Event-ID`). */
  async #connectGet(record: StreamRecord): Promise<void> {
    const host = this.#host;
    if (!this.#isLive(record)) return;
    this.#setState(record, { kind: 'connecting', attempt: record.attempts });
    const url = host.url.href;
    const sessionId = host.sessionId();
    let answer: HttpAnswer;
    try {
      const headers = await buildHeaders(host.options.headers, {
        accept: 'text/event-stream',
        [SESSION_ID_HEADER]: sessionId,
        [PROTOCOL_VERSION_HEADER]: host.protocolVersion(),
        [LAST_EVENT_ID_HEADER]: record.lastEventId,
      });
      if (!this.#isLive(record)) return;
      answer = fetchAnswer(
        await host.fetch(url, {
          ...host.options.requestInit,
          method: 'GET',
          headers,
          signal: record.controller.signal,
        }),
      );
    } catch (error) {
      if (!this.#isLive(record)) return;
      // A refused redirect is an answer, not a network failure: asking again would get the same one.
      if (error instanceof RedirectRefusedError) this.#die(record, error);
      else this.#retryOrDie(record, networkError('GET', url, error));
      return;
    }
    if (!this.#isLive(record)) {
      await answer.discard();
      return;
    }
    const status = answer.status;
    if (!answer.ok) {
      const error = errorForAnswer('GET', url, answer, await answer.excerpt());
      if (status === 405 && record.role === 'standalone') {
        this.#setState(record, { kind: 'unsupported' });
      } else if (status === 404 && sessionId !== undefined) {
        this.#die(record, error);
        // The standalone stream is how the server reaches a quiet client: its 404 means the session is gone.
        if (record.role === 'standalone') host.sessionExpired(sessionId);
      } else if (status === 401 || status === 403 || status === 405 || status === 400) {
        this.#die(record, error);
      } else {
        this.#retryOrDie(record, error);
      }
      return;
    }
    const contentType = (answer.header('content-type') ?? '').toLowerCase();
    if (!contentType.includes('text/event-stream') || !answer.hasBody) {
      await answer.discard();
      this.#die(record, new TransportError(`GET ${url} did not answer with an SSE stream (content-type ${JSON.stringify(contentType)})`));
      return;
    }
    this.#setState(record, { kind: 'open', lastEventId: record.lastEventId });
    await this.#readStream(record, answer);
  }

  /** Reads one connection of a stream, then decides: done, reconnect, or fail. */
  async #readStream(record: StreamRecord, answer: HttpAnswer): Promise<void> {
    // Reading stops once a request stream is complete, even if the server keeps the connection open.
    const isComplete = (): boolean => record.complete;
    const parser = new SseParser(record, {
      ...(record.lastEventId !== undefined && { lastEventId: record.lastEventId }),
      maxEventSize: this.#host.options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
      source: this.#host.url.href,
    });
    let failure: Error | undefined;
    try {
      // The record's own signal is enough: closing the transport stops every record.
      await answer.readSse(parser, record.controller, isComplete);
    } catch (error) {
      if (error instanceof MessageTooLargeError) {
        // The server sent more than the bound: asking again (resuming) would get more of the same.
        if (this.#isLive(record)) this.#die(record, error);
        return;
      }
      if (!isComplete()) {
        const reason = error instanceof Error ? error.message : String(error);
        failure = new TransportError(`The SSE stream from ${this.#host.url.href} broke: ${reason}`, { cause: error });
      }
    }
    if (!this.#isLive(record)) return;
    if (record.role === 'request' && record.pending.size === 0) {
      this.#requestStreams.delete(record);
      this.#setState(record, { kind: 'ended' });
      return;
    }
    if (record.role === 'request' && record.lastEventId === undefined) {
      this.#die(record, failure ?? new TransportError('The SSE stream ended before the response and carried no event id to resume from'));
      return;
    }
    this.#retryOrDie(record, failure);
  }

  #retryOrDie(record: StreamRecord, error: Error | undefined): void {
    const next = record.tracker.next();
    if (next === undefined) {
      const reason = error?.message ?? 'the stream kept closing';
      this.#die(record, new TransportError(`SSE stream reconnection gave up after ${this.#host.reconnect.maxRetries} attempts: ${reason}`, { cause: error }));
      return;
    }
    this.#setState(record, { kind: 'reconnecting', attempt: next.attempt, delayMs: next.delayMs, lastEventId: record.lastEventId });
    record.timer = this.#host.clock.setTimeout(() => {
      record.timer = undefined;
      void this.#connectGet(record);
    }, next.delayMs);
  }

  /** A stream that cannot continue: report it, and give up on the answers it still owed. */
  #die(record: StreamRecord, error: Error): void {
    if (record.timer !== undefined) this.#host.clock.clearTimeout(record.timer);
    record.timer = undefined;
    this.#requestStreams.delete(record);
    this.#setState(record, { kind: 'dead', error });
    this.#host.error(error);
    if (record.pending.size > 0) {
      const ids = [...record.pending];
      record.pending.clear();
      // An oversized message is the answer's own failure, reported as it is.
      const reason = error instanceof MessageTooLargeError ? error : new TransportError(`The SSE stream for this request ended before its response arrived (${error.message})`, { cause: error });
      this.#host.undeliverable(ids, reason);
    }
  }
}
