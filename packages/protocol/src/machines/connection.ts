/**
 * The connection state machine of both eras as a pure function over a frozen table
 * (docs/guide/lifecycle.md). Legacy (2024-11-05 … 2025-11-25): the `initialize` handshake below.
 * Initializing has three phases, each a variant with rows of its own: `handshaking` (the
 * `initialize` handshake), `resuming` (client: the server forgot the HTTP session and a new
 * handshake continues it) and `discovering` (client, 2026-07-28: `server/discover`, whose
 * answer leads straight to Operating, or back to Uninitialized for the handshake when the
 * server turns out to be legacy):
 *
 * ```
 * uninitialized ──initialize──▶ initializing(handshaking) ──result──▶ initialized ──initialized──▶ operating
 *   │    └──server/discover──▶ initializing(discovering) ──discovered─────────────────────────────▲    │
 *   │                                                 initializing(resuming) ◀──404 (sessionExpired)──┘
 *   │                                                     └──result (same version, no capability lost)──▶ initialized
 *   └──────────── close / transport closed / fatal error / 404 after replacement (any live state) ──┐
 *                                         ▼
 *                                  shuttingDown ──transport closed / drained / deadline──▶ terminated
 * ```
 *
 * A server whose session another instance ran until it died adopts it (`sessionAdopted`, scale-out):
 * Uninitialized ──▶ Operating at the recorded version with the recorded client capabilities.
 *
 * Every stage (a state's kind, or Initializing's phase) × event pair has a row: the target stages (for diagrams), the spec section it
 * implements, and a pure `apply` returning the next state and the effects for the runner.
 * Message gating (which requests and notifications are legal in which state) lives here too,
 * so no role layer or transport decides lifecycle on its own. The rows of the states before
 * Operating are in `connection-handshake.ts`, `connection-resuming.ts` and
 * `connection-discovering.ts`; the shared building blocks in `connection-steps.ts`.
 */
import { stageOf, type ConnectionEffect, type ConnectionEvent, type ConnectionEventType, type ConnectionStage, type ConnectionState, type ConnectionStep, type ConnectionConfig } from './connection-types.js';
import { HANDSHAKING, INITIALIZED, UNINITIALIZED } from './connection-handshake.js';
import { DISCOVERING } from './connection-discovering.js';
import { RESUMING, sessionExpiredRow } from './connection-resuming.js';
import { modernInbound, modernOutbound } from './connection-modern.js';
import {
  CANCELLED,
  INITIALIZE,
  discoveryIgnoredRows,
  INITIALIZED_NOTIFICATION,
  accept,
  accepted,
  drop,
  ignore,
  liveClosingRows,
  refuse,
  refuseClosed,
  rejectInbound,
  step,
  terminateNow,
  terminated,
  type ConnectionTable,
  type ConnectionTransitionRow,
  type EventOf,
  type StateOf,
} from './connection-steps.js';

export type { ConnectionTable, ConnectionTransitionRow } from './connection-steps.js';

const OPERATING: ConnectionTable['operating'] = {
  outboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Operation',
    doc: 'every request but initialize may be sent (capabilities are checked by the runner); a modern server sends none',
    apply(state, event) {
      const modern = modernOutbound(state, event);
      if (modern !== undefined) return modern;
      if (event.method === INITIALIZE) return step(state, refuse('Already initialized'));
      return accepted(state);
    },
  },
  inboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Operation; MCP 2026-07-28 basic/index §Statelessness (modern: per-request version)',
    doc: 'every request but a second initialize is dispatched; modern: initialize is -32601, an unserved _meta version -32022',
    apply(state, event) {
      const modern = modernInbound(state, event);
      if (modern !== undefined) return modern;
      if (event.method === INITIALIZE) return step(state, rejectInbound('Already initialized; a second initialize is not allowed'));
      return accepted(state);
    },
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Operation',
    doc: 'every notification but a second notifications/initialized',
    apply(state, event) {
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, refuse('notifications/initialized was already sent'));
      return accepted(state);
    },
  },
  inboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Operation',
    doc: 'every notification but a repeated notifications/initialized',
    apply(state, event) {
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, drop('repeated notifications/initialized'));
      return accepted(state);
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'already operating: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  initializeFailed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'already operating: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  sessionAssumed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  sessionAdopted: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'this connection already runs a session: ignored',
    apply: (state) => step(state, ignore('already operating')),
  },
  sessionExpired: sessionExpiredRow<'operating'>(),
  ...discoveryIgnoredRows<'operating'>('already operating'),
  ...liveClosingRows<'operating'>(),
};

const SHUTTING_DOWN: ConnectionTable['shuttingDown'] = {
  outboundRequest: {
    to: [],
    spec: 'docs/guide/lifecycle.md shuttingDown',
    doc: 'new outbound requests fail at once with connection-closed',
    apply: (state, event) => step(state, refuseClosed(`Cannot send ${event.method}: the connection is shutting down`)),
  },
  inboundRequest: {
    to: [],
    spec: 'docs/guide/lifecycle.md shuttingDown',
    doc: 'new inbound requests get an error reply',
    apply: (state, event) => step(state, rejectInbound(`Cannot handle ${event.method}: the connection is shutting down`)),
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/utilities/cancellation',
    doc: 'only notifications/cancelled for the requests being abandoned',
    apply(state, event) {
      if (event.method === CANCELLED) return step(state, accept);
      return step(state, refuseClosed(`Cannot send ${event.method}: the connection is shutting down`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'docs/guide/lifecycle.md shuttingDown',
    doc: 'late notifications are dropped',
    apply: (state, event) => step(state, drop(`${event.method} while shutting down`)),
  },
  initializeSucceeded: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  initializeFailed: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  sessionAssumed: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  sessionAdopted: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  sessionExpired: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'too late: ignored',
    apply: (state) => step(state, ignore('shutting down')),
  },
  ...discoveryIgnoredRows<'shuttingDown'>('shutting down'),
  closeRequested: {
    to: [],
    spec: 'close is idempotent',
    doc: 'already closing: nothing more to do',
    apply: (state) => step(state, ignore('already shutting down')),
  },
  terminateRequested: {
    to: ['terminated'],
    spec: 'close is idempotent',
    doc: 'terminate() while closing: finish forcefully now',
    apply: (state) => terminateNow(state, 'terminated'),
  },
  transportClosed: {
    to: ['terminated'],
    spec: 'docs/guide/lifecycle.md terminated',
    doc: 'the transport finished closing: settle anything left and finish',
    apply: (state) =>
      step(terminated(state.config, state.reason, state.error), { type: 'settleOutbound', notify: false }, { type: 'abortInbound' }, { type: 'finalize' }),
  },
  fatalError: {
    to: [],
    spec: 'docs/guide/lifecycle.md',
    doc: 'already closing: the first reason stands',
    apply: (state) => step(state, ignore('already shutting down')),
  },
  drained: {
    to: ['terminated'],
    spec: 'docs/guide/lifecycle.md terminated',
    doc: 'every pending request settled after the transport went away: finish',
    apply: (state) => step(terminated(state.config, state.reason, state.error), { type: 'finalize' }),
  },
  closeDeadlineExpired: {
    to: ['terminated'],
    spec: 'docs/guide/lifecycle.md shuttingDown (bounded by closeDeadlineMs)',
    doc: 'the transport did not report closing in time: close it forcefully and finish',
    apply: (state) => terminateNow(state, 'closeTimeout'),
  },
};

function terminalRow<T extends ConnectionEventType>(doc: string, effect: (event: EventOf<T>) => ConnectionEffect) {
  return {
    to: [] as readonly ConnectionStage[],
    spec: 'docs/guide/lifecycle.md Terminated (final)',
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
  sessionAdopted: terminalRow('final state: ignored', () => ignore('terminated')),
  sessionExpired: terminalRow('final state: ignored', () => ignore('terminated')),
  discovered: terminalRow('final state: ignored', () => ignore('terminated')),
  discoveryFailed: terminalRow('final state: ignored', () => ignore('terminated')),
  closeRequested: terminalRow('close() after the end: nothing to do', () => ignore('terminated')),
  terminateRequested: terminalRow('terminate() after the end: nothing to do', () => ignore('terminated')),
  transportClosed: terminalRow('final state: ignored', () => ignore('terminated')),
  fatalError: terminalRow('final state: ignored', () => ignore('terminated')),
  drained: terminalRow('final state: ignored', () => ignore('terminated')),
  closeDeadlineExpired: terminalRow('final state: ignored', () => ignore('terminated')),
};

/** The transition table: every stage × event pair. Frozen; render it, test it, inspect it. */
export const CONNECTION_TABLE: ConnectionTable = deepFreeze({
  uninitialized: UNINITIALIZED,
  handshaking: HANDSHAKING,
  resuming: RESUMING,
  discovering: DISCOVERING,
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
 * // state.kind === 'initializing', state.phase === 'handshaking', effects = [{ type: 'accept' }]
 * ```
 */
export function transition(state: ConnectionState, event: ConnectionEvent): ConnectionStep {
  const row = CONNECTION_TABLE[stageOf(state)][event.type] as ConnectionTransitionRow<ConnectionStage, ConnectionEventType>;
  return row.apply(state, event);
}

/** The state every connection starts in; `config` is copied and frozen unless it is frozen already (then shared). */
export function initialConnectionState(config: ConnectionConfig): ConnectionState {
  return { kind: 'uninitialized', config: Object.isFrozen(config) ? config : Object.freeze({ ...config }) };
}

/** True for the states in which messages can still flow. */
export function isLive(state: ConnectionState): boolean {
  return state.kind !== 'shuttingDown' && state.kind !== 'terminated';
}

