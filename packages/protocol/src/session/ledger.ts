/**
 * One ledger per connection holding every in-flight request in both directions
 * (docs/guide/lifecycle.md). Records move only through {@link RequestLedger.move}, which applies the
 * pure request machine; an outbound request settles only in {@link RequestLedger.settle}, an
 * inbound one only in {@link RequestLedger.settleInbound}. A bounded memory of recently
 * settled outbound ids lets the runner drop late responses and progress silently
 * (docs/guide/lifecycle.md). Progress tokens of task-augmented requests outlive their request until the
 * task is terminal (MCP 2025-11-25 basic/utilities/tasks); the ledger keeps them too ({@link RequestLedger.retainProgress}).
 * Outbound messages the connection machine held back (`holdOutbound`: made during a handshake,
 * or while a forgotten session is being replaced) wait here too, in one queue, in order, until
 * the machine releases them ({@link RequestLedger.hold}, {@link RequestLedger.takeHeld}).
 */
import type { JsonObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../jsonrpc/messages.js';
import type { RequestInputRound } from '../observability/events.js';
import type { TraceContext } from '../observability/trace-context.js';
import { isSettled, requestTransition, type RequestEventType, type RequestStateKind } from '../machines/request.js';
import type { CustomSchema } from './custom-methods.js';
import type { Clock } from './clock.js';
import { Deadlines, type DeadlineExpiry, type DeadlineSlots } from './deadlines.js';
import type { RequestOptions } from './options.js';
import { OutboundTable, RecordTable } from './record-table.js';

interface RecordBase {
  readonly id: RequestId;
  readonly method: string;
  readonly startedAt: number;
  state: RequestStateKind;
  /** The validated W3C trace context the request carries, if any (an outbound middleware may set it before the request is written). */
  trace: TraceContext | undefined;
  /** The latest Multi Round-Trip round this request took (shown in `inspect`). */
  input?: RequestInputRound;
}

/** What a request that may need Multi Round-Trip rounds remembers between them. */
export interface InputRoundsRecord {
  /** The params the caller passed (each retry starts from them). */
  readonly params: JsonObject | undefined;
  count: number;
  /** The caller's `RequestOptions.onInputRound`. */
  readonly onRound: ((round: number) => void) | undefined;
}

/** A request this side sent and awaits. */
export interface OutboundRecord extends Omit<RecordBase, 'id'>, DeadlineSlots {
  /**
   * Changes only when a modern-era request is sent again after an `InputRequiredResult`: each
   * round goes out under a new id ({@link RequestLedger.reissue}).
   */
  id: RequestId;
  readonly direction: 'outbound';
  /** The request's promise's resolving functions: set once, as the record is opened (`outbound.ts`). */
  resolve: (result: JsonObject) => void;
  reject: (error: Error) => void;
  readonly progressToken: string | number | undefined;
  readonly onProgress: ((progress: ProgressUpdate) => void) | undefined;
  readonly timeoutMs: number;
  readonly maxTotalTimeoutMs: number | undefined;
  readonly resetTimeoutOnProgress: boolean;
  /** 2025-11-25 task-augmented request: cancelled with `tasks/cancel`, never `notifications/cancelled`. */
  readonly taskAugmented: boolean;
  /** A custom method's result schema (spec methods are checked against the revision). */
  readonly customResult: CustomSchema | undefined;
  /** A request that may answer `input_required` (2026-07-28): what its next rounds start from (`outbound-rounds.ts`). */
  rounds: InputRoundsRecord | undefined;
  /** Headers a transport that routes by headers carries with every round of it (`RequestOptions.headers`). */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Detaches the caller's AbortSignal listener. */
  detach: (() => void) | undefined;
  /**
   * Requests written after this one into the same transport promise, before its reaction ran
   * (record, message, related request id: three slots each; `outbound.ts`, `#write`). Read when
   * that write fails; otherwise kept until this record is written again or dropped, so a
   * request still pending holds at most the rest of one batch.
   */
  joined: unknown[] | undefined;
}

/** A request the peer sent and a handler is working on. */
export interface InboundRecord extends RecordBase {
  readonly direction: 'inbound';
  /**
   * Aborts its handler's signal; created at the signal's first read ({@link handlerSignal}),
   * since most handlers never read it.
   */
  controller: AbortController | undefined;
  /** Why it was cancelled or aborted, once it was: a signal first read afterwards starts aborted. */
  abortReason: { readonly reason: unknown } | undefined;
  readonly progressToken: string | number | undefined;
  lastProgress: number | undefined;
  /** Number of nested requests this handler is waiting on. */
  waitingOn: number;
}

export type LedgerRecord = OutboundRecord | InboundRecord;

/**
 * The abort signal of an inbound request's handler, created at its first read: aborted (now or
 * later) when the request is cancelled or aborted, with the same reason.
 */
export function handlerSignal(record: InboundRecord): AbortSignal {
  let controller = record.controller;
  if (controller === undefined) {
    controller = record.controller = new AbortController();
    if (record.abortReason !== undefined) controller.abort(record.abortReason.reason);
  }
  return controller.signal;
}

/** A progress notification's payload as delivered to `onProgress`. */
export interface ProgressUpdate {
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** A read-only view of one in-flight request, for inspection. */
export interface PendingRequestView {
  readonly id: RequestId;
  readonly direction: 'outbound' | 'inbound';
  readonly method: string;
  readonly state: RequestStateKind;
  readonly startedAt: number;
}

/** Hears every request move (the session's observer: an object, not a closure per session). */
export interface LedgerListener {
  request(record: LedgerRecord, from: RequestStateKind, event: RequestEventType): void;
}

/** How an inbound request ended: its handler answered, failed, or was cancelled or aborted. */
export type InboundSettlement =
  | { readonly event: 'complete' | 'fail' }
  | { readonly event: 'cancel' | 'abort'; readonly reason: Error };

/** Progress of a task that outlives its request (MCP 2025-11-25 basic/utilities/tasks). */
interface RetainedProgress {
  readonly taskId: string;
  readonly onProgress: (progress: ProgressUpdate) => void;
}

/** How an outbound request ends: answered (`complete`), or failed, cancelled, timed out or aborted with an error. */
export type SettleEvent = 'complete' | 'fail' | 'cancel' | 'expire' | 'abort';

/**
 * An outbound message waiting until the connection is Operating. A request keeps its record
 * (state `created`, or `dispatched` when the transport bounced it because the server forgot
 * the session); `options` is absent when it was admitted already and only needs writing again.
 * A notification settles its sender's promise when it is finally written.
 */
export type HeldMessage =
  | {
      readonly kind: 'request';
      readonly record: OutboundRecord;
      readonly message: JsonRpcRequest;
      readonly options: RequestOptions | undefined;
      readonly relatedRequestId: RequestId | undefined;
    }
  | {
      readonly kind: 'notification';
      readonly message: JsonRpcNotification;
      readonly relatedRequestId: RequestId | undefined;
      readonly resolve: () => void;
      readonly reject: (error: Error) => void;
    };

export class RequestLedger {
  // The maps are created on first use: a server session mostly never sends a request, and an
  // idle session holding its GET stream should not keep empty maps. The inbound records and the
  // progress tokens are in `RecordTable`s, which allocate nothing per request while one is in
  // flight and whose discarded tables do not keep settled records alive; this side's own requests,
  // whose ids it counts, are in an `OutboundTable`, a ring by id (`record-table.ts`).
  readonly #inbound = new RecordTable<RequestId, InboundRecord>();
  #outbound: OutboundTable<OutboundRecord> | undefined;
  #byToken: RecordTable<string | number, OutboundRecord> | undefined;
  #retained: Map<string | number, RetainedProgress> | undefined;
  /** The ids of the latest settled outbound requests, a ring of `#memory` slots (oldest at `#oldest` once full). */
  #settledOrder: RequestId[] | undefined;
  #oldest = 0;
  /** The one queue of held outbound messages (created on first use). */
  #held: HeldMessage[] | undefined;
  readonly #memory: number;
  readonly #listener: LedgerListener;
  readonly #clock: Clock;
  #expiry: DeadlineExpiry<OutboundRecord> | undefined;
  /**
   * The outbound requests' timeouts and maximums, behind one timer. Made with the outbound
   * table, in {@link addOutbound}'s first-use branch, so an idle session holding its GET stream
   * keeps none and a request pays no check of its own: every use is of a request that entered
   * the ledger (the table exists, so these do), except {@link stopDeadlines}, which asks.
   */
  deadlines!: Deadlines<OutboundRecord>;

  constructor(options: { memory: number; listener: LedgerListener; clock: Clock }) {
    this.#memory = options.memory;
    this.#listener = options.listener;
    this.#clock = options.clock;
  }

  /** Who handles an expired deadline (the session's outbound requests, created after the ledger). */
  expireWith(handler: DeadlineExpiry<OutboundRecord>): void {
    this.#expiry = handler;
  }

  addOutbound(record: OutboundRecord): void {
    (this.#outbound ??= this.#firstOutbound()).add(record);
    if (record.progressToken !== undefined) (this.#byToken ??= new RecordTable()).set(record.progressToken, record);
  }

  /** The first outbound request: its table and the deadlines, made together. */
  #firstOutbound(): OutboundTable<OutboundRecord> {
    const deadlines = (this.deadlines = new Deadlines(this.#clock));
    if (this.#expiry !== undefined) deadlines.onExpire(this.#expiry);
    return new OutboundTable();
  }

  /** Clears the deadlines' timer (the connection ended), if a request ever made one. */
  stopDeadlines(): void {
    if (this.#outbound !== undefined) this.deadlines.stop();
  }

  addInbound(record: InboundRecord): void {
    this.#inbound.set(record.id, record);
  }

  outbound(id: RequestId): OutboundRecord | undefined {
    return this.#outbound?.get(id);
  }

  inbound(id: RequestId): InboundRecord | undefined {
    return this.#inbound.get(id);
  }

  hasInbound(id: RequestId): boolean {
    return this.#inbound.has(id);
  }

  byProgressToken(token: string | number): OutboundRecord | undefined {
    return this.#byToken?.get(token);
  }

  /**
   * True when `id` belongs to an outbound request that settled recently (its late response is
   * dropped silently). A scan of the ring: asked only for a response to no pending request.
   */
  wasRecentlySettled(id: RequestId): boolean {
    return this.#settledOrder?.includes(id) === true;
  }

  get outboundCount(): number {
    return this.#outbound?.size ?? 0;
  }

  get inboundCount(): number {
    return this.#inbound.size;
  }

  /** Applies a request event; returns false when the machine ignored it. */
  move(record: LedgerRecord, event: RequestEventType): boolean {
    const from = record.state;
    const step = requestTransition(from, event);
    if (!step.changed) return false;
    record.state = step.state;
    this.#listener.request(record, from, event);
    if (step.settled && record.direction === 'inbound') this.#inbound.delete(record.id);
    return true;
  }

  /**
   * A modern-era request goes out again under `id` (Multi Round-Trip Requests, MCP 2026-07-28
   * basic/patterns/mrtr:
   * every retry has a new id). The old id is remembered like a settled one, so anything late
   * for it is dropped silently; the record, its timers and its progress token carry on.
   */
  reissue(record: OutboundRecord, id: RequestId): void {
    const outbound = this.#outbound;
    if (outbound?.get(record.id) !== record) return;
    outbound.delete(record.id);
    this.#remember(record.id);
    record.id = id;
    outbound.add(record);
  }

  /**
   * The one place an outbound request settles: moves it to its terminal state, clears its
   * deadlines and signal listener, forgets it (remembering the id for late messages) and
   * resolves its promise with `result` (`complete`) or rejects it with the error. Returns false
   * if it had already settled. The outcome comes as two arguments, not an object: a call's
   * answer settles without an object made for it.
   */
  settle(record: OutboundRecord, event: 'complete', result: JsonObject): boolean;
  settle(record: OutboundRecord, event: Exclude<SettleEvent, 'complete'>, error: Error): boolean;
  settle(record: OutboundRecord, event: SettleEvent, outcome: JsonObject | Error): boolean {
    if (isSettled(record.state)) return false;
    if (!this.move(record, event)) return false;
    this.deadlines.remove(record);
    record.detach?.();
    record.detach = undefined;
    this.#outbound?.delete(record.id);
    if (record.progressToken !== undefined) this.#byToken?.delete(record.progressToken);
    this.#remember(record.id);
    if (event === 'complete') record.resolve(outcome as JsonObject);
    else record.reject(outcome as Error);
    return true;
  }

  /**
   * The one place an inbound request settles. `cancel` and `abort` abort its handler's
   * signal with `reason`. Returns false when it had already settled: then no reply may go out.
   */
  settleInbound(record: InboundRecord, outcome: InboundSettlement): boolean {
    if (!this.move(record, outcome.event)) return false;
    if (outcome.event === 'cancel' || outcome.event === 'abort') {
      record.abortReason = { reason: outcome.reason };
      record.controller?.abort(outcome.reason);
    }
    return true;
  }

  /** Holds an outbound message back until the machine releases the queue (`releaseOutbound`). */
  hold(entry: HeldMessage): void {
    (this.#held ??= []).push(entry);
  }

  /** True when `record` waits in the queue (it is not on the wire, so there is nothing to cancel there). */
  isHeld(record: OutboundRecord): boolean {
    return this.#held?.some((entry) => entry.kind === 'request' && entry.record === record) === true;
  }

  /** True while held messages wait. */
  get holding(): boolean {
    return this.#held !== undefined && this.#held.length > 0;
  }

  /** Empties the queue and returns what waited, in the order it was held. */
  takeHeld(): HeldMessage[] {
    const held = this.#held ?? [];
    this.#held = undefined;
    return held;
  }

  /** Keeps delivering progress for `token` after its request returned a task, until {@link releaseTask}. */
  retainProgress(token: string | number, taskId: string, onProgress: (progress: ProgressUpdate) => void): void {
    (this.#retained ??= new Map()).set(token, { taskId, onProgress });
  }

  /** The progress callback of a retained token, if any. */
  retainedProgress(token: string | number): ((progress: ProgressUpdate) => void) | undefined {
    return this.#retained?.get(token)?.onProgress;
  }

  /** Stops delivering progress for every token of `taskId`. */
  releaseTask(taskId: string): void {
    const retained = this.#retained;
    if (retained === undefined) return;
    for (const [token, entry] of retained) if (entry.taskId === taskId) retained.delete(token);
  }

  /** Forgets every retained token (the connection ended). */
  releaseAllTasks(): void {
    this.#retained?.clear();
  }

  /** Every pending outbound record (a copy, safe to settle while iterating). */
  pendingOutbound(): OutboundRecord[] {
    return this.#outbound === undefined ? [] : this.#outbound.values();
  }

  /** Every in-flight inbound record (a copy). */
  pendingInbound(): InboundRecord[] {
    return this.#inbound.values();
  }

  /** Snapshot for inspection. */
  view(): PendingRequestView[] {
    const views: PendingRequestView[] = [];
    for (const r of this.#outbound?.values() ?? []) views.push({ id: r.id, direction: 'outbound', method: r.method, state: r.state, startedAt: r.startedAt });
    for (const r of this.#inbound.values()) views.push({ id: r.id, direction: 'inbound', method: r.method, state: r.state, startedAt: r.startedAt });
    return views;
  }

  /**
   * Remembers `id`, forgetting the oldest remembered id beyond `#memory`: one store in a ring,
   * since the ids are read only when a response matches no pending request. A `Set` kept beside
   * the ring for that rare read cost a delete and an add per settled request, and the set's table
   * was reallocated as its deleted entries piled up (profiling journal, 2026-12-07 fifth pass).
   * An outbound id settles once (a reissued request takes a new id), so the ring holds no duplicates.
   */
  #remember(id: RequestId): void {
    if (this.#memory <= 0) return;
    const order = (this.#settledOrder ??= []);
    if (order.length < this.#memory) {
      order.push(id);
    } else {
      order[this.#oldest] = id;
      this.#oldest = this.#oldest + 1 === this.#memory ? 0 : this.#oldest + 1;
    }
  }
}
