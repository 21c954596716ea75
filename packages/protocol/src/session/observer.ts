/**
 * What a session shows of itself: the typed inspection stream (`inspect` option) and the
 * `node:diagnostics_channel` channels, for connection transitions, request transitions,
 * messages in and out, and diagnostics. Building an event costs nothing when nobody listens.
 */
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { ConnectionEvent, ConnectionState } from '../machines/connection-types.js';
import type { RequestEventType, RequestStateKind } from '../machines/request.js';
import { hasDiagnosticSubscribers, publishDiagnostic } from '../observability/diagnostics.js';
import type { InspectEvent, InspectListener } from '../observability/events.js';
import type { Clock } from './clock.js';
import type { LedgerRecord } from './ledger.js';

/** Called on every change of connection state. */
export type TransitionListener = (to: ConnectionState, from: ConnectionState, event: ConnectionEvent) => void;

export class SessionObserver {
  readonly #transitionListeners = new Set<TransitionListener>();
  readonly #sessionId: string;
  readonly #clock: Clock;
  readonly #listener: InspectListener | undefined;

  constructor(sessionId: string, clock: Clock, listener: InspectListener | undefined) {
    this.#sessionId = sessionId;
    this.#clock = clock;
    this.#listener = listener;
  }

  /** Publishes one event, built only when an `inspect` listener or a channel subscriber wants it. */
  inspect(type: InspectEvent['type'], build: () => InspectEvent): void {
    const listener = this.#listener;
    if (listener === undefined && !hasDiagnosticSubscribers(type)) return;
    const event = build();
    publishDiagnostic(event);
    if (listener !== undefined) {
      try {
        listener(event);
      } catch {
        // an inspector must never break the session
      }
    }
  }

  diagnostic(message: string, detail?: unknown): void {
    this.inspect('diagnostic', () => ({ type: 'diagnostic', sessionId: this.#sessionId, at: this.#clock.now(), message, detail }));
  }

  /** Subscribes to connection transitions; returns an unsubscribe function. */
  onTransition(listener: TransitionListener): () => void {
    this.#transitionListeners.add(listener);
    return () => this.#transitionListeners.delete(listener);
  }

  /** The connection changed state: tells the listeners (a throwing one is a diagnostic), then the inspectors. */
  connectionTransition(from: ConnectionState, to: ConnectionState, event: ConnectionEvent): void {
    for (const listener of this.#transitionListeners) {
      try {
        listener(to, from, event);
      } catch (error) {
        this.diagnostic('transition listener threw', error);
      }
    }
    this.inspect('session.transition', () => ({
      type: 'session.transition',
      sessionId: this.#sessionId,
      at: this.#clock.now(),
      from: from.kind,
      to: to.kind,
      event: event.type,
    }));
  }

  /** A request moved; `created` marks its entry into the ledger (`from` and `to` both `created`). */
  requestTransition(record: LedgerRecord, from: RequestStateKind, event: RequestEventType, created = false): void {
    this.inspect('request.transition', () => ({
      type: 'request.transition',
      sessionId: this.#sessionId,
      at: this.#clock.now(),
      requestId: record.id,
      direction: record.direction,
      method: record.method,
      from: created ? 'created' : from,
      to: created ? 'created' : record.state,
      event,
      elapsedMs: this.#clock.now() - record.startedAt,
    }));
  }

  messageIn(message: unknown): void {
    this.inspect('message.in', () => ({ type: 'message.in', sessionId: this.#sessionId, at: this.#clock.now(), message }));
  }

  messageOut(message: JsonRpcMessage): void {
    this.inspect('message.out', () => ({ type: 'message.out', sessionId: this.#sessionId, at: this.#clock.now(), message }));
  }
}
