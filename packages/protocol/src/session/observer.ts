/**
 * What a session shows of itself: the `inspect` stream and the diagnostics channels
 * (docs/guide/lifecycle.md §Reading it). Events are built only when someone listens, so a session nobody
 * watches pays one check per event and allocates nothing for it: the frequent events (a request's
 * transitions, a message in or out, several per request on each side) are checked before their
 * builder exists, so no closure is made per event either.
 */
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { ConnectionEvent, ConnectionState } from '../machines/connection-types.js';
import type { RequestEventType, RequestStateKind } from '../machines/request.js';
import { hasDiagnosticSubscribers, publishDiagnostic } from '../observability/diagnostics.js';
import type { InspectEvent, InspectListener, TaskTransitionReport } from '../observability/events.js';
import type { Clock } from './clock.js';
import type { LedgerRecord } from './ledger.js';

export class SessionObserver {
  readonly #sessionId: string;
  readonly #clock: Clock;
  readonly #listener: InspectListener | undefined;

  constructor(sessionId: string, clock: Clock, listener: InspectListener | undefined) {
    this.#sessionId = sessionId;
    this.#clock = clock;
    this.#listener = listener;
  }

  transition(from: ConnectionState, to: ConnectionState, event: ConnectionEvent): void {
    this.#emit('session.transition', () => ({ type: 'session.transition', sessionId: this.#sessionId, at: this.#clock.now(), from: from.kind, to: to.kind, event: event.type }));
  }

  /** A request moved; `created` marks its entry into the ledger (`from` and `to` both `created`). */
  request(record: LedgerRecord, from: RequestStateKind, event: RequestEventType, created = false): void {
    if (!this.#watched('request.transition')) return;
    const at = this.#clock.now();
    this.#deliver({
      type: 'request.transition',
      sessionId: this.#sessionId,
      at,
      requestId: record.id,
      direction: record.direction,
      method: record.method,
      from: created ? 'created' : from,
      to: created ? 'created' : record.state,
      event,
      elapsedMs: at - record.startedAt,
      ...(record.trace !== undefined ? { trace: record.trace } : {}),
      ...(record.input !== undefined ? { input: record.input } : {}),
    });
  }

  /** A task moved (reported by the server running it or the client driving it); built only when someone listens. */
  task(build: () => TaskTransitionReport): void {
    this.#emit('task.transition', () => ({ ...build(), type: 'task.transition', sessionId: this.#sessionId, at: this.#clock.now() }));
  }

  messageIn(message: unknown): void {
    if (this.#watched('message.in')) this.#deliver({ type: 'message.in', sessionId: this.#sessionId, at: this.#clock.now(), message });
  }

  messageOut(message: JsonRpcMessage): void {
    if (this.#watched('message.out')) this.#deliver({ type: 'message.out', sessionId: this.#sessionId, at: this.#clock.now(), message });
  }

  diagnostic(message: string, detail?: unknown): void {
    this.#emit('diagnostic', () => ({ type: 'diagnostic', sessionId: this.#sessionId, at: this.#clock.now(), message, detail }));
  }

  #emit(type: InspectEvent['type'], build: () => InspectEvent): void {
    if (this.#watched(type)) this.#deliver(build());
  }

  /** Whether anyone listens to events of `type`: this session's inspect listener or a diagnostics channel. */
  #watched(type: InspectEvent['type']): boolean {
    return this.#listener !== undefined || hasDiagnosticSubscribers(type);
  }

  #deliver(event: InspectEvent): void {
    publishDiagnostic(event);
    const listener = this.#listener;
    if (listener === undefined) return;
    try {
      listener(event);
    } catch {
      // an inspector must never break the session
    }
  }
}
