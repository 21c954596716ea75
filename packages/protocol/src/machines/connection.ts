/**
 * The connection state machine of the legacy era (2024-11-05 … 2025-11-25) as a pure
 * function over a frozen table (architecture §3):
 *
 * ```
 * uninitialized ──initialize──▶ initializing ──result──▶ initialized ──initialized──▶ operating
 *                                    ▲                                                  │
 *                                    └──────────── sessionExpired (client) ─────────────┘
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
import { SessionChangedError } from '../errors/errors.js';
import { lostCapabilities } from '../capabilities/table.js';
import { SHUTTING_DOWN, TERMINATED } from './connection-closing.js';
import type {
  ConnectionConfig,
  ConnectionEffect,
  ConnectionEvent,
  ConnectionEventType,
  ConnectionState,
  ConnectionStateKind,
  ConnectionStep,
} from './connection-types.js';
import {
  accept,
  beginShutdown,
  drop,
  expire,
  ignore,
  liveClosingRows,
  queue,
  refuse,
  rejectInbound,
  step,
  CANCELLED,
  INITIALIZE,
  INITIALIZED_NOTIFICATION,
  LOG_MESSAGE,
  PING,
  PROGRESS,
  type ConnectionTable,
  type ConnectionTransitionRow,
  type StateOf,
} from './connection-steps.js';

export type { ConnectionTable, ConnectionTransitionRow } from './connection-steps.js';

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
  sessionExpired: {
    to: [],
    spec: 'digest §5.2 Session management (404: start a new session)',
    doc: 'no session yet: ignored',
    apply: (state) => step(state, ignore('no session to expire')),
  },
  ...liveClosingRows<'uninitialized'>(),
};

const INITIALIZING: ConnectionTable['initializing'] = {
  outboundRequest: {
    to: [],
    spec: 'digest §1.1 Traffic allowed before initialization; rules 23, 24',
    doc: 'only ping goes out while the handshake is in flight; a client request waits in the ledger until Operating; a second initialize is refused',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('initialize is already in flight'));
      if (state.config.role === 'client') return step(state, queue);
      return step(state, refuse(`Cannot send ${event.method} while initializing`));
    },
  },
  inboundRequest: {
    to: [],
    spec: 'digest §1.1; rule 50; lessons #1',
    doc: 'ping is answered; a second initialize and everything else get an error reply',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('initialize is already in progress'));
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
    spec: 'digest §1.1, §2.2; issue 18 #1',
    doc: 'client accepts log and progress from the server; others are dropped (a server never sees initialized here: the runner reads no frame behind initialize until it is answered)',
    apply(state, event) {
      if (state.config.role === 'client' && (event.method === LOG_MESSAGE || event.method === PROGRESS)) {
        return step(state, accept);
      }
      return step(state, drop(`${event.method} while initializing`));
    },
  },
  initializeSucceeded: {
    to: ['initialized', 'shuttingDown'],
    spec: 'digest §1.1 Version negotiation; rules 19–22; §5.2 Session management',
    doc: 'version agreed: client then sends notifications/initialized; server has sent its InitializeResult. After an expiry a changed version or a lost server capability ends the session (sessionChanged)',
    apply(state, event) {
      const previous = state.previous;
      if (previous !== undefined) {
        const lost = lostCapabilities(previous.peer.capabilities, event.peer.capabilities);
        if (event.version !== previous.version || lost.length > 0) {
          return beginShutdown(state, 'sessionChanged', new SessionChangedError(previous.version, event.version, lost));
        }
      }
      const next: StateOf<'initialized'> = { kind: 'initialized', config: state.config, version: event.version, peer: event.peer };
      const effects: ConnectionEffect[] = [{ type: 'negotiated', version: event.version }];
      if (state.config.role === 'client') effects.push({ type: 'sendInitialized' });
      return { state: next, effects };
    },
  },
  initializeFailed: {
    to: ['uninitialized', 'shuttingDown'],
    spec: 'digest §1.1 Version negotiation (client MUST disconnect); rule 21',
    doc: 'client: disconnect (version mismatch, error reply, timeout); server: the error was answered, back to uninitialized',
    apply(state, event) {
      if (state.config.role === 'server') return step({ kind: 'uninitialized', config: state.config });
      return beginShutdown(state, event.reason, event.error);
    },
  },
  sessionAssumed: {
    to: [],
    spec: 'digest §5.2',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  sessionExpired: {
    to: [],
    spec: 'digest §5.2 Session management',
    doc: 'a handshake is already in flight: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  ...liveClosingRows<'initializing'>(),
};

const INITIALIZED: ConnectionTable['initialized'] = {
  outboundRequest: {
    to: [],
    spec: 'digest §1.1; rules 22, 24',
    doc: 'ping only until notifications/initialized has been sent (client: other requests wait in the ledger) or received (server)',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('Already initialized'));
      if (state.config.role === 'client') return step(state, queue);
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
    doc: 'client: sending notifications/initialized enters operating and sends the requests that waited; server may only log before it arrives',
    apply(state, event) {
      if (state.config.role === 'client') {
        if (event.method === INITIALIZED_NOTIFICATION) {
          return step({ kind: 'operating', config: state.config, version: state.version, peer: state.peer }, accept, { type: 'dispatchQueued' });
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
  sessionExpired: {
    to: ['initializing'],
    spec: 'digest §5.2 Session management (404: the client MUST start a new session)',
    doc: 'client: the server forgot the session; run the handshake again, keeping the version and peer to compare',
    apply: (state) => expire(state),
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
  sessionExpired: {
    to: ['initializing'],
    spec: 'digest §5.2 Session management (404: the client MUST start a new session)',
    doc: 'client: the server forgot the session; run the handshake again (pending requests stay in the ledger), keeping the version and peer to compare',
    apply: (state) => expire(state),
  },
  ...liveClosingRows<'operating'>(),
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
