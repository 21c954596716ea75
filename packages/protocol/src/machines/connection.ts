/**
 * The connection state machine of the legacy era (2024-11-05 … 2025-11-25) as a pure
 * function over a frozen table (architecture §3):
 *
 * ```
 * uninitialized ──initialize──▶ initializing ──result──▶ initialized ──initialized──▶ operating
 *       │                            │                        │                         │
 *       └──────────── close / transport closed / fatal error ─┴─────────────────────────┘
 *                                         ▼
 *                                  shuttingDown ──transport closed / drained / deadline──▶ terminated
 * ```
 *
 * Every state × event pair has a row: the target states (for diagrams), the spec section it
 * implements, and a pure `apply` returning the next state and the effects for the runner.
 * Message gating (which requests and notifications are legal in which state) lives here too,
 * so no role layer or transport decides lifecycle on its own.
 */
import { ErrorCode } from '../jsonrpc/messages.js';
import type {
  CloseReason,
  ConnectionEffect,
  ConnectionEvent,
  ConnectionEventType,
  ConnectionState,
  ConnectionStateKind,
  ConnectionStep,
  ConnectionConfig,
} from './connection-types.js';

type StateOf<K extends ConnectionStateKind> = Extract<ConnectionState, { kind: K }>;
type EventOf<T extends ConnectionEventType> = Extract<ConnectionEvent, { type: T }>;

/** One row of the transition table. */
export interface ConnectionTransitionRow<K extends ConnectionStateKind, T extends ConnectionEventType> {
  /** States this row can lead to (for diagrams and docs). */
  readonly to: readonly ConnectionStateKind[];
  /** The spec section (digest numbering) or design rule the row implements. */
  readonly spec: string;
  /** One-line description. */
  readonly doc: string;
  readonly apply: (state: StateOf<K>, event: EventOf<T>) => ConnectionStep;
}

export type ConnectionTable = {
  readonly [K in ConnectionStateKind]: { readonly [T in ConnectionEventType]: ConnectionTransitionRow<K, T> };
};

const PING = 'ping';
const INITIALIZE = 'initialize';
const INITIALIZED_NOTIFICATION = 'notifications/initialized';
const CANCELLED = 'notifications/cancelled';
const LOG_MESSAGE = 'notifications/message';
const PROGRESS = 'notifications/progress';

function step(state: ConnectionState, ...effects: ConnectionEffect[]): ConnectionStep {
  return { state, effects };
}
const accept: ConnectionEffect = { type: 'accept' };
function rejectInbound(message: string, code: number = ErrorCode.InvalidRequest): ConnectionEffect {
  return { type: 'rejectInbound', code, message };
}
function refuse(message: string): ConnectionEffect {
  return { type: 'refuseOutbound', error: 'invalidState', message };
}
function refuseClosed(message: string): ConnectionEffect {
  return { type: 'refuseOutbound', error: 'connectionClosed', message };
}
function drop(reason: string): ConnectionEffect {
  return { type: 'dropInbound', reason };
}
function ignore(reason: string): ConnectionEffect {
  return { type: 'ignore', reason };
}
const defer: ConnectionEffect = { type: 'deferInbound' };
const replayDeferred: ConnectionEffect = { type: 'replayDeferred' };

function shuttingDown(config: ConnectionConfig, reason: CloseReason, error?: Error): StateOf<'shuttingDown'> {
  return error === undefined ? { kind: 'shuttingDown', config, reason } : { kind: 'shuttingDown', config, reason, error };
}
function terminated(config: ConnectionConfig, reason: CloseReason, error?: Error): StateOf<'terminated'> {
  return error === undefined ? { kind: 'terminated', config, reason } : { kind: 'terminated', config, reason, error };
}

/** Graceful shutdown from a live state: cancel and settle pending work, close the transport, arm the deadline. */
function beginShutdown(state: ConnectionState, reason: CloseReason, error?: Error): ConnectionStep {
  return step(
    shuttingDown(state.config, reason, error),
    { type: 'settleOutbound', notify: true },
    { type: 'abortInbound' },
    { type: 'closeTransport' },
    { type: 'armCloseDeadline' },
  );
}

/** The transport went away under a live state: nothing can be sent; settle everything, then finish. */
function transportLost(state: ConnectionState, event: EventOf<'transportClosed'>): ConnectionStep {
  const reason: CloseReason = event.initiator === 'error' ? 'transportError' : event.initiator === 'remote' ? 'peerClosed' : 'closed';
  return step(
    shuttingDown(state.config, reason, event.error),
    { type: 'settleOutbound', notify: false },
    { type: 'abortInbound' },
    { type: 'dispatch', event: { type: 'drained' } },
  );
}

/** Forceful end from any non-terminal state. */
function terminateNow(state: ConnectionState, reason: CloseReason): ConnectionStep {
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

const LIVE_TO_SHUTDOWN: readonly ConnectionStateKind[] = ['shuttingDown'];

/** Rows shared by every live state (uninitialized … operating) for closing events. */
function liveClosingRows<K extends 'uninitialized' | 'initializing' | 'initialized' | 'operating'>() {
  return {
    closeRequested: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'architecture §3 ShuttingDown; lessons #4, #5',
      doc: 'close(): cancel pending outbound (notifications/cancelled, never for initialize), abort handlers, close the transport, arm the deadline',
      apply: (state: StateOf<K>) => beginShutdown(state, 'closed'),
    },
    terminateRequested: {
      to: ['terminated'] as readonly ConnectionStateKind[],
      spec: 'style §11',
      doc: 'terminate(): settle everything and close the transport forcefully',
      apply: (state: StateOf<K>) => terminateNow(state, 'terminated'),
    },
    transportClosed: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'digest §1.1 Shutdown (the transport signals termination)',
      doc: 'transport lost: settle pending requests with connection-closed, abort handlers, then drain',
      apply: (state: StateOf<K>, event: EventOf<'transportClosed'>) => transportLost(state, event),
    },
    fatalError: {
      to: LIVE_TO_SHUTDOWN,
      spec: 'architecture §3 ShuttingDown',
      doc: 'unrecoverable error: shut down gracefully with reason fatalError',
      apply: (state: StateOf<K>, event: EventOf<'fatalError'>) => beginShutdown(state, 'fatalError', event.error),
    },
    drained: {
      to: [] as readonly ConnectionStateKind[],
      spec: 'architecture §3',
      doc: 'drained only means something while shutting down',
      apply: (state: StateOf<K>) => step(state, ignore('not shutting down')),
    },
    closeDeadlineExpired: {
      to: [] as readonly ConnectionStateKind[],
      spec: 'architecture §3',
      doc: 'a stale deadline timer: ignored',
      apply: (state: StateOf<K>) => step(state, ignore('not shutting down')),
    },
  } as const;
}

const UNINITIALIZED: ConnectionTable['uninitialized'] = {
  outboundRequest: {
    to: ['initializing'],
    spec: 'digest §1.1 Initialization; rules 17, 23, 24, 50',
    doc: 'client: initialize starts the handshake; ping is always allowed; anything else waits for the handshake',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'client') {
        return step({ kind: 'initializing', config: state.config }, accept);
      }
      return step(state, refuse(`Cannot send ${event.method} before initialization`));
    },
  },
  inboundRequest: {
    to: ['initializing'],
    spec: 'digest §1.1; rules 1 (lessons), 50; lessons #1',
    doc: 'server: initialize starts the handshake; ping is answered; any other request gets an error reply and no handler runs',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'server') {
        return step({ kind: 'initializing', config: state.config }, accept);
      }
      return step(state, rejectInbound(`Received ${event.method} before initialization; send initialize first`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'digest §1.1 Traffic allowed before initialization',
    doc: 'server may send log notifications; nothing else before the handshake',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === LOG_MESSAGE) return step(state, accept);
      return step(state, refuse(`Cannot send ${event.method} before initialization`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'digest §1.1; rule 7',
    doc: 'notifications before the handshake are dropped (never answered); a client accepts server log messages',
    apply(state, event) {
      if (state.config.role === 'client' && event.method === LOG_MESSAGE) return step(state, accept);
      return step(state, drop(`${event.method} before initialization`));
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'digest §1.1',
    doc: 'no handshake in flight: ignored',
    apply: (state) => step(state, ignore('no initialize in flight')),
  },
  initializeFailed: {
    to: [],
    spec: 'digest §1.1',
    doc: 'no handshake in flight: ignored',
    apply: (state) => step(state, ignore('no initialize in flight')),
  },
  sessionAssumed: {
    to: ['operating'],
    spec: 'digest §5.2 (stateless Streamable HTTP: the handshake was answered on another request)',
    doc: 'a stateless exchange starts operating at the version its transport carries',
    apply: (state, event) =>
      step({ kind: 'operating', config: state.config, version: event.version, peer: event.peer }, { type: 'negotiated', version: event.version }),
  },
  ...liveClosingRows<'uninitialized'>(),
};

const INITIALIZING: ConnectionTable['initializing'] = {
  outboundRequest: {
    to: [],
    spec: 'digest §1.1 Traffic allowed before initialization; rules 23, 24',
    doc: 'only ping while the handshake is in flight; a second initialize is refused',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('initialize is already in flight'));
      return step(state, refuse(`Cannot send ${event.method} while initializing`));
    },
  },
  inboundRequest: {
    to: [],
    spec: 'digest §1.1; rule 50; lessons #1; JSON-RPC arrival order',
    doc: 'ping is answered and a second initialize refused at once; the server holds everything else back until initialize is answered (arrival order); the client refuses it',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('initialize is already in progress'));
      if (state.config.role === 'server') return step(state, defer);
      return step(state, rejectInbound(`Received ${event.method} before initialization completed`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'digest §1.1, §2.2 (initialize is never cancelled); rule 25',
    doc: 'server may log; the client never cancels initialize; nothing else yet',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === LOG_MESSAGE) return step(state, accept);
      if (event.method === CANCELLED) return step(state, refuse('initialize cannot be cancelled'));
      return step(state, refuse(`Cannot send ${event.method} while initializing`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'digest §1.1, §2.2',
    doc: 'server: held back until initialize is answered (so an early initialized is never lost); client accepts log and progress; others are dropped',
    apply(state, event) {
      if (state.config.role === 'server') return step(state, defer);
      if (state.config.role === 'client' && (event.method === LOG_MESSAGE || event.method === PROGRESS)) {
        return step(state, accept);
      }
      return step(state, drop(`${event.method} while initializing`));
    },
  },
  initializeSucceeded: {
    to: ['initialized'],
    spec: 'digest §1.1 Version negotiation; rules 19–22',
    doc: 'version agreed: client then sends notifications/initialized; server has sent its InitializeResult and handles what arrived meanwhile',
    apply(state, event) {
      const next: StateOf<'initialized'> = { kind: 'initialized', config: state.config, version: event.version, peer: event.peer };
      const effects: ConnectionEffect[] = [{ type: 'negotiated', version: event.version }];
      if (state.config.role === 'client') effects.push({ type: 'sendInitialized' });
      else effects.push(replayDeferred);
      return { state: next, effects };
    },
  },
  initializeFailed: {
    to: ['uninitialized', 'shuttingDown'],
    spec: 'digest §1.1 Version negotiation (client MUST disconnect); rule 21',
    doc: 'client: disconnect (version mismatch, error reply, timeout); server: the error was answered, back to uninitialized, then what arrived meanwhile',
    apply(state, event) {
      if (state.config.role === 'server') return step({ kind: 'uninitialized', config: state.config }, replayDeferred);
      return beginShutdown(state, event.reason, event.error);
    },
  },
  sessionAssumed: {
    to: [],
    spec: 'digest §5.2',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  ...liveClosingRows<'initializing'>(),
};

const INITIALIZED: ConnectionTable['initialized'] = {
  outboundRequest: {
    to: [],
    spec: 'digest §1.1; rules 22, 24',
    doc: 'ping only until notifications/initialized has been sent (client) or received (server)',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('Already initialized'));
      return step(state, refuse(`Cannot send ${event.method} before notifications/initialized`));
    },
  },
  inboundRequest: {
    to: ['operating'],
    spec: 'architecture §3 Initialized (lenient default); lessons #2',
    doc: 'server: a request after the InitializeResult implies initialized (lenient) or is refused (strict); a second initialize is refused',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('Already initialized; a second initialize is not allowed'));
      if (state.config.role === 'server' && state.config.strictInitialized) {
        return step(state, rejectInbound(`Received ${event.method} before notifications/initialized`));
      }
      return step({ kind: 'operating', config: state.config, version: state.version, peer: state.peer }, accept);
    },
  },
  outboundNotification: {
    to: ['operating'],
    spec: 'digest §1.1 (client MUST send notifications/initialized); rule 22',
    doc: 'client: sending notifications/initialized enters operating; server may only log before it arrives',
    apply(state, event) {
      if (state.config.role === 'client') {
        if (event.method === INITIALIZED_NOTIFICATION) {
          return step({ kind: 'operating', config: state.config, version: state.version, peer: state.peer }, accept);
        }
        return step(state, refuse(`Cannot send ${event.method} before notifications/initialized`));
      }
      if (event.method === LOG_MESSAGE || event.method === PROGRESS || event.method === CANCELLED) return step(state, accept);
      return step(state, refuse(`Cannot send ${event.method} before notifications/initialized arrived`));
    },
  },
  inboundNotification: {
    to: ['operating'],
    spec: 'digest §1.1; rule 22',
    doc: 'server: notifications/initialized enters operating; other notifications are accepted',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === INITIALIZED_NOTIFICATION) {
        return step({ kind: 'operating', config: state.config, version: state.version, peer: state.peer }, accept);
      }
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, drop('notifications/initialized sent to a client'));
      return step(state, accept);
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'digest §1.1',
    doc: 'already initialized: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  initializeFailed: {
    to: [],
    spec: 'digest §1.1',
    doc: 'already initialized: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  sessionAssumed: {
    to: [],
    spec: 'digest §5.2',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  ...liveClosingRows<'initialized'>(),
};

const OPERATING: ConnectionTable['operating'] = {
  outboundRequest: {
    to: [],
    spec: 'digest §1.1 Operation',
    doc: 'every request but initialize may be sent (capabilities are checked by the runner)',
    apply(state, event) {
      if (event.method === INITIALIZE) return step(state, refuse('Already initialized'));
      return step(state, accept);
    },
  },
  inboundRequest: {
    to: [],
    spec: 'digest §1.1 Operation; lessons #1',
    doc: 'every request but a second initialize is dispatched',
    apply(state, event) {
      if (event.method === INITIALIZE) return step(state, rejectInbound('Already initialized; a second initialize is not allowed'));
      return step(state, accept);
    },
  },
  outboundNotification: {
    to: [],
    spec: 'digest §1.1 Operation',
    doc: 'every notification but a second notifications/initialized',
    apply(state, event) {
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, refuse('notifications/initialized was already sent'));
      return step(state, accept);
    },
  },
  inboundNotification: {
    to: [],
    spec: 'digest §1.1 Operation',
    doc: 'every notification but a repeated notifications/initialized',
    apply(state, event) {
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, drop('repeated notifications/initialized'));
      return step(state, accept);
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'digest §1.1',
    doc: 'already operating: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  initializeFailed: {
    to: [],
    spec: 'digest §1.1',
    doc: 'already operating: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  sessionAssumed: {
    to: [],
    spec: 'digest §5.2',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  ...liveClosingRows<'operating'>(),
};

const SHUTTING_DOWN: ConnectionTable['shuttingDown'] = {
  outboundRequest: {
    to: [],
    spec: 'architecture §3 ShuttingDown',
    doc: 'new outbound requests fail at once with connection-closed',
    apply: (state, event) => step(state, refuseClosed(`Cannot send ${event.method}: the connection is shutting down`)),
  },
  inboundRequest: {
    to: [],
    spec: 'architecture §3 ShuttingDown',
    doc: 'new inbound requests get an error reply',
    apply: (state, event) => step(state, rejectInbound(`Cannot handle ${event.method}: the connection is shutting down`)),
  },
  outboundNotification: {
    to: [],
    spec: 'digest §2.2; lessons #5',
    doc: 'only notifications/cancelled for the requests being abandoned',
    apply(state, event) {
      if (event.method === CANCELLED) return step(state, accept);
      return step(state, refuseClosed(`Cannot send ${event.method}: the connection is shutting down`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'architecture §3 ShuttingDown',
    doc: 'late notifications are dropped',
    apply: (state, event) => step(state, drop(`${event.method} while shutting down`)),
  },
  initializeSucceeded: {
    to: [],
    spec: 'architecture §3',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  initializeFailed: {
    to: [],
    spec: 'architecture §3',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  sessionAssumed: {
    to: [],
    spec: 'architecture §3',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  closeRequested: {
    to: [],
    spec: 'style §11 (close is idempotent)',
    doc: 'already closing: nothing more to do',
    apply: (state) => step(state, ignore('already shutting down')),
  },
  terminateRequested: {
    to: ['terminated'],
    spec: 'style §11',
    doc: 'terminate() while closing: finish forcefully now',
    apply: (state) => terminateNow(state, 'terminated'),
  },
  transportClosed: {
    to: ['terminated'],
    spec: 'architecture §3 Terminated',
    doc: 'the transport finished closing: settle anything left and finish',
    apply: (state) =>
      step(terminated(state.config, state.reason, state.error), { type: 'settleOutbound', notify: false }, { type: 'abortInbound' }, { type: 'finalize' }),
  },
  fatalError: {
    to: [],
    spec: 'architecture §3',
    doc: 'already closing: the first reason stands',
    apply: (state) => step(state, ignore('already shutting down')),
  },
  drained: {
    to: ['terminated'],
    spec: 'architecture §3 Terminated',
    doc: 'every pending request settled after the transport went away: finish',
    apply: (state) => step(terminated(state.config, state.reason, state.error), { type: 'finalize' }),
  },
  closeDeadlineExpired: {
    to: ['terminated'],
    spec: 'architecture §3 (bounded by a deadline); lessons #4',
    doc: 'the transport did not report closing in time: close it forcefully and finish',
    apply: (state) => terminateNow(state, 'closeTimeout'),
  },
};

function terminalRow<T extends ConnectionEventType>(doc: string, effect: (event: EventOf<T>) => ConnectionEffect) {
  return {
    to: [] as readonly ConnectionStateKind[],
    spec: 'architecture §3 Terminated (final)',
    doc,
    apply: (state: StateOf<'terminated'>, event: EventOf<T>) => step(state, effect(event)),
  };
}

const TERMINATED: ConnectionTable['terminated'] = {
  outboundRequest: terminalRow('the connection is over: refused', (e) => refuseClosed(`Cannot send ${e.method}: the connection is closed`)),
  inboundRequest: terminalRow('the connection is over: dropped', (e) => drop(`${e.method} after termination`)),
  outboundNotification: terminalRow('the connection is over: refused', (e) => refuseClosed(`Cannot send ${e.method}: the connection is closed`)),
  inboundNotification: terminalRow('the connection is over: dropped', (e) => drop(`${e.method} after termination`)),
  initializeSucceeded: terminalRow('final state: ignored', () => ignore('terminated')),
  initializeFailed: terminalRow('final state: ignored', () => ignore('terminated')),
  sessionAssumed: terminalRow('final state: ignored', () => ignore('terminated')),
  closeRequested: terminalRow('close() after the end: nothing to do', () => ignore('terminated')),
  terminateRequested: terminalRow('terminate() after the end: nothing to do', () => ignore('terminated')),
  transportClosed: terminalRow('final state: ignored', () => ignore('terminated')),
  fatalError: terminalRow('final state: ignored', () => ignore('terminated')),
  drained: terminalRow('final state: ignored', () => ignore('terminated')),
  closeDeadlineExpired: terminalRow('final state: ignored', () => ignore('terminated')),
};

/** The transition table: every state × event pair. Frozen; render it, test it, inspect it. */
export const CONNECTION_TABLE: ConnectionTable = deepFreeze({
  uninitialized: UNINITIALIZED,
  initializing: INITIALIZING,
  initialized: INITIALIZED,
  operating: OPERATING,
  shuttingDown: SHUTTING_DOWN,
  terminated: TERMINATED,
});

function deepFreeze<T extends object>(value: T): T {
  for (const inner of Object.values(value)) {
    if (typeof inner === 'object' && inner !== null && !Object.isFrozen(inner)) deepFreeze(inner as object);
  }
  return Object.freeze(value);
}

/**
 * The pure step of the connection machine: no I/O, no clock, no mutation.
 *
 * @example
 * ```ts
 * const start = initialConnectionState({ role: 'client', strictInitialized: false });
 * const { state, effects } = transition(start, { type: 'outboundRequest', method: 'initialize' });
 * // state.kind === 'initializing', effects = [{ type: 'accept' }]
 * ```
 */
export function transition(state: ConnectionState, event: ConnectionEvent): ConnectionStep {
  const row = CONNECTION_TABLE[state.kind][event.type] as ConnectionTransitionRow<ConnectionStateKind, ConnectionEventType>;
  return row.apply(state, event);
}

/** The state every connection starts in. */
export function initialConnectionState(config: ConnectionConfig): ConnectionState {
  return { kind: 'uninitialized', config: Object.freeze({ ...config }) };
}

/** True for the states in which messages can still flow. */
export function isLive(state: ConnectionState): boolean {
  return state.kind !== 'shuttingDown' && state.kind !== 'terminated';
}
