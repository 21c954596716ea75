/**
 * The rows of the connection machine's closing states, ShuttingDown and Terminated
 * (architecture §3): everything settles, the transport closes within a deadline, and the
 * final state refuses or ignores whatever comes late.
 */
import type { ConnectionEffect, ConnectionEventType, ConnectionStateKind } from './connection-types.js';
import {
  accept,
  drop,
  ignore,
  refuseClosed,
  rejectInbound,
  step,
  terminated,
  terminateNow,
  CANCELLED,
  type ConnectionTable,
  type EventOf,
  type StateOf,
} from './connection-steps.js';

export const SHUTTING_DOWN: ConnectionTable['shuttingDown'] = {
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
  sessionExpired: {
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

export const TERMINATED: ConnectionTable['terminated'] = {
  outboundRequest: terminalRow('the connection is over: refused', (e) => refuseClosed(`Cannot send ${e.method}: the connection is closed`)),
  inboundRequest: terminalRow('the connection is over: dropped', (e) => drop(`${e.method} after termination`)),
  outboundNotification: terminalRow('the connection is over: refused', (e) => refuseClosed(`Cannot send ${e.method}: the connection is closed`)),
  inboundNotification: terminalRow('the connection is over: dropped', (e) => drop(`${e.method} after termination`)),
  initializeSucceeded: terminalRow('final state: ignored', () => ignore('terminated')),
  initializeFailed: terminalRow('final state: ignored', () => ignore('terminated')),
  sessionAssumed: terminalRow('final state: ignored', () => ignore('terminated')),
  sessionExpired: terminalRow('final state: ignored', () => ignore('terminated')),
  closeRequested: terminalRow('close() after the end: nothing to do', () => ignore('terminated')),
  terminateRequested: terminalRow('terminate() after the end: nothing to do', () => ignore('terminated')),
  transportClosed: terminalRow('final state: ignored', () => ignore('terminated')),
  fatalError: terminalRow('final state: ignored', () => ignore('terminated')),
  drained: terminalRow('final state: ignored', () => ignore('terminated')),
  closeDeadlineExpired: terminalRow('final state: ignored', () => ignore('terminated')),
};

