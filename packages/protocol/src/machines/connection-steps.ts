/**
 * The building blocks of the connection machine's table (see `connection.ts`): the row and
 * table types, the effect helpers every row uses, and the steps shared by several states
 * (beginning a shutdown, losing the transport, terminating, the closing rows of every live
 * state). Pure: no I/O, no clock.
 */
import { ErrorCode } from '../jsonrpc/messages.js';
import type {
  CloseReason,
  ConnectionEffect,
  ConnectionEvent,
  ConnectionEventType,
  ConnectionStage,
  ConnectionState,
  ConnectionStateKind,
  ConnectionStep,
  ConnectionConfig,
  InitializingPhase,
} from './connection-types.js';

/** The state variant of a stage: a kind's state, or the Initializing variant of a phase. */
export type StateOf<S extends ConnectionStage | ConnectionStateKind> = S extends InitializingPhase
  ? Extract<ConnectionState, { kind: 'initializing'; phase: S }>
  : Extract<ConnectionState, { kind: S }>;
export type EventOf<T extends ConnectionEventType> = Extract<ConnectionEvent, { type: T }>;

/** One row of the transition table. */
export interface ConnectionTransitionRow<K extends ConnectionStage, T extends ConnectionEventType> {
  /** Stages this row can lead to (for diagrams and docs). */
  readonly to: readonly ConnectionStage[];
  /** The spec section or design rule the row implements. */
  readonly spec: string;
  /** One-line description. */
  readonly doc: string;
  /** The transition itself: a pure function of the state and the event. */
  readonly apply: (state: StateOf<K>, event: EventOf<T>) => ConnectionStep;
}

/** The connection machine as data: one row per (stage, event) pair, every pair present. */
export type ConnectionTable = {
  readonly [K in ConnectionStage]: { readonly [T in ConnectionEventType]: ConnectionTransitionRow<K, T> };
};

export const PING = 'ping';
export const INITIALIZE = 'initialize';
export const DISCOVER = 'server/discover';
export const INITIALIZED_NOTIFICATION = 'notifications/initialized';
export const CANCELLED = 'notifications/cancelled';
export const LOG_MESSAGE = 'notifications/message';
export const PROGRESS = 'notifications/progress';

export function step(state: ConnectionState, ...effects: ConnectionEffect[]): ConnectionStep {
  return { state, effects };
}
export const accept: ConnectionEffect = { type: 'accept' };
const ACCEPT_ONLY: readonly ConnectionEffect[] = [accept]; // not frozen: for…of over a frozen array allocates per element
/**
 * The last two steps {@link accepted} made, newest first: a connection's state is accepted
 * again for every message it sends or receives (two, so that both ends of an in-memory pair
 * in one process share theirs too).
 */
let lastAccepted: ConnectionStep | undefined;
let otherAccepted: ConnectionStep | undefined;
/**
 * `step(state, accept)` without an effects array per step: the Operating rows run for every
 * message, and their step is read, never kept nor changed, so a state's step is shared while
 * it stays among the last two accepted (no object per message).
 */
export function accepted(state: ConnectionState): ConnectionStep {
  const last = lastAccepted;
  if (last?.state === state) return last;
  const other = otherAccepted;
  if (other?.state === state) {
    otherAccepted = last;
    lastAccepted = other;
    return other;
  }
  otherAccepted = last;
  lastAccepted = { state, effects: ACCEPT_ONLY };
  return lastAccepted;
}
export function rejectInbound(message: string, code: number = ErrorCode.InvalidRequest, data?: unknown): ConnectionEffect {
  return data === undefined ? { type: 'rejectInbound', code, message } : { type: 'rejectInbound', code, message, data };
}
export function refuse(message: string): ConnectionEffect {
  return { type: 'refuseOutbound', error: 'invalidState', message };
}
export function refuseClosed(message: string): ConnectionEffect {
  return { type: 'refuseOutbound', error: 'connectionClosed', message };
}
export function drop(reason: string): ConnectionEffect {
  return { type: 'dropInbound', reason };
}
export function ignore(reason: string): ConnectionEffect {
  return { type: 'ignore', reason };
}
export const defer: ConnectionEffect = { type: 'deferInbound' };
export const hold: ConnectionEffect = { type: 'holdOutbound' };
export const replayDeferred: ConnectionEffect = { type: 'replayDeferred' };

export function shuttingDown(config: ConnectionConfig, reason: CloseReason, error?: Error): StateOf<'shuttingDown'> {
  return error === undefined ? { kind: 'shuttingDown', config, reason } : { kind: 'shuttingDown', config, reason, error };
}
export function terminated(config: ConnectionConfig, reason: CloseReason, error?: Error): StateOf<'terminated'> {
  return error === undefined ? { kind: 'terminated', config, reason } : { kind: 'terminated', config, reason, error };
}

/** Graceful shutdown from a live state: cancel and settle pending work, close the transport, arm the deadline. */
export function beginShutdown(state: ConnectionState, reason: CloseReason, error?: Error): ConnectionStep {
  return step(
    shuttingDown(state.config, reason, error),
    { type: 'settleOutbound', notify: true },
    { type: 'abortInbound' },
    { type: 'closeTransport' },
    { type: 'armCloseDeadline' },
  );
}

/** The transport went away under a live state: nothing can be sent; settle everything, then finish. */
export function transportLost(state: ConnectionState, event: EventOf<'transportClosed'>): ConnectionStep {
  const reason: CloseReason = event.initiator === 'error' ? 'transportError' : event.initiator === 'remote' ? 'peerClosed' : 'closed';
  return step(
    shuttingDown(state.config, reason, event.error),
    { type: 'settleOutbound', notify: false },
    { type: 'abortInbound' },
    { type: 'dispatch', event: { type: 'drained' } },
  );
}

/** Forceful end from any non-terminal state. */
export function terminateNow(state: ConnectionState, reason: CloseReason): ConnectionStep {
  const error = state.kind === 'shuttingDown' ? state.error : undefined;
  const finalReason = state.kind === 'shuttingDown' && reason === 'terminated' ? state.reason : reason;
  return step(
    terminated(state.config, finalReason, error),
    { type: 'settleOutbound', notify: false },
    { type: 'abortInbound' },
    { type: 'terminateTransport' },
    { type: 'finalize' },
  );
}

// ---------------------------------------------------------------------------------------
// Gate rules, per state. Each returns the step for one message.
// ---------------------------------------------------------------------------------------

export const LIVE_TO_SHUTDOWN: readonly ConnectionStage[] = ['shuttingDown'];

/** Rows shared by every live state (uninitialized … operating) for closing events. */
export function liveClosingRows<K extends Exclude<ConnectionStage, 'shuttingDown' | 'terminated'>>() {
  return {
    closeRequested: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'docs/guide/lifecycle.md shuttingDown',
      doc: 'close(): cancel pending outbound (notifications/cancelled, never for initialize), abort handlers, close the transport, arm the deadline',
      apply: (state: StateOf<K>) => beginShutdown(state, 'closed'),
    },
    terminateRequested: {
      to: ['terminated'] as readonly ConnectionStage[],
      spec: 'close is idempotent',
      doc: 'terminate(): settle everything and close the transport forcefully',
      apply: (state: StateOf<K>) => terminateNow(state, 'terminated'),
    },
    transportClosed: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'MCP 2025-11-25 basic/lifecycle §Shutdown (the transport signals termination)',
      doc: 'transport lost: settle pending requests with connection-closed, abort handlers, then drain',
      apply: (state: StateOf<K>, event: EventOf<'transportClosed'>) => transportLost(state, event),
    },
    fatalError: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'docs/guide/lifecycle.md shuttingDown',
      doc: 'unrecoverable error: shut down gracefully with reason fatalError',
      apply: (state: StateOf<K>, event: EventOf<'fatalError'>) => beginShutdown(state, 'fatalError', event.error),
    },
    drained: {
      to: [] as readonly ConnectionStage[],
      spec: 'docs/guide/lifecycle.md',
      doc: 'drained only means something while shutting down',
      apply: (state: StateOf<K>) => step(state, ignore('not shutting down')),
    },
    closeDeadlineExpired: {
      to: [] as readonly ConnectionStage[],
      spec: 'docs/guide/lifecycle.md',
      doc: 'a stale deadline timer: ignored',
      apply: (state: StateOf<K>) => step(state, ignore('not shutting down')),
    },
  } as const;
}

/**
 * The rows of the two modern-era discovery events in every stage but `discovering`: only a
 * discovery in flight can be answered, so anywhere else they mean nothing.
 */
export function discoveryIgnoredRows<K extends ConnectionStage>(why: string) {
  const row = {
    to: [] as readonly ConnectionStage[],
    spec: 'MCP 2026-07-28 basic/versioning §Backward Compatibility, MCP 2026-07-28 server/discover',
    doc: `no discovery in flight: ignored (${why})`,
    apply: (state: StateOf<K>) => step(state, ignore(why)),
  };
  return { discovered: row, discoveryFailed: row } as const;
}

let lastOutboundRequest: EventOf<'outboundRequest'> | undefined;

/**
 * The `outboundRequest` event for `method`: the last one made is reused when it matches (frozen:
 * the table and the transition listeners read events, none changes one), so a session sending
 * one method over and over makes no event per request.
 */
export function outboundRequestEvent(method: string, waitForOperating: boolean): EventOf<'outboundRequest'> {
  const last = lastOutboundRequest;
  if (last !== undefined && last.method === method && (last.waitForOperating === true) === waitForOperating) return last;
  const event: EventOf<'outboundRequest'> = waitForOperating ? { type: 'outboundRequest', method, waitForOperating: true } : { type: 'outboundRequest', method };
  return (lastOutboundRequest = Object.freeze(event));
}

let lastInboundRequest: EventOf<'inboundRequest'> | undefined;

/**
 * The `inboundRequest` event for `method` and the version the request declares (2026-07-28),
 * reused while they repeat, as {@link outboundRequestEvent} is: a peer calling one method over
 * and over makes no event per request.
 */
export function inboundRequestEvent(method: string, declaredVersion: string | undefined): EventOf<'inboundRequest'> {
  const last = lastInboundRequest;
  if (last !== undefined && last.method === method && last.declaredVersion === declaredVersion) return last;
  const event: EventOf<'inboundRequest'> = declaredVersion === undefined ? { type: 'inboundRequest', method } : { type: 'inboundRequest', method, declaredVersion };
  return (lastInboundRequest = Object.freeze(event));
}
