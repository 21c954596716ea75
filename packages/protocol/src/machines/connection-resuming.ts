/**
 * The connection machine's rows for a session the server forgot (client, Streamable HTTP):
 * MCP 2025-11-25 Transports §Session Management — "When a client receives HTTP 404 in response
 * to a request containing an `Mcp-Session-Id`, it MUST start a new session by sending a new
 * `InitializeRequest` without a session ID attached." Pure: no I/O, no clock.
 *
 * ```
 * initialized / operating ──sessionExpired──▶ initializing(resuming) ──initializeSucceeded──▶ initialized
 *        │    (the forgotten session was a replacement       │   (a new version or a lost capability:
 *        │     that answered nothing: shuttingDown)          │    shuttingDown, SessionChangedError)
 *        │                                                    └──sessionExpired / initializeFailed──▶ shuttingDown
 * ```
 *
 * While resuming, the ledger holds every outbound message but the machine's own `initialize`:
 * the old session is gone and the new one exists only once its handshake is done, so nothing
 * else may reach the transport. The held messages go out, in order, after the new
 * `notifications/initialized` (`releaseOutbound`). A message the transport could not deliver
 * because of the 404 comes back to the ledger the same way. The transport only reports the 404.
 */
import { SessionChangedError, SessionExpiredError } from '../errors/errors.js';
import { revisionFor } from '../revisions/resolve-version.js';
import {
  INITIALIZE,
  PING,
  accept,
  beginShutdown,
  discoveryIgnoredRows,
  hold,
  ignore,
  liveClosingRows,
  refuse,
  rejectInbound,
  step,
  type ConnectionTable,
  type EventOf,
  type StateOf,
} from './connection-steps.js';
import type { ConnectionEffect, ConnectionStage, ConnectionStep, PeerInfo } from './connection-types.js';

const SESSION_MANAGEMENT = 'MCP 2025-11-25 Transports §Session Management';

export const RESUMING: ConnectionTable['resuming'] = {
  outboundRequest: {
    to: [],
    spec: `${SESSION_MANAGEMENT} (a new InitializeRequest starts the new session)`,
    doc: "the machine's own initialize goes out once; every other request (ping included) waits in the ledger until the new session is operating",
    apply(state, event) {
      if (event.method !== INITIALIZE) return step(state, hold);
      if (state.initializeSent) return step(state, refuse('initialize is already in flight'));
      return step({ ...state, initializeSent: true }, accept);
    },
  },
  inboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 Lifecycle §Initialization; JSON-RPC 2.0 §4 (every request is answered)',
    doc: "the old session's traffic may still arrive: ping and the server's requests are handled; initialize is refused",
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('initialize is already in progress'));
      return step(state, accept);
    },
  },
  outboundNotification: {
    to: [],
    spec: SESSION_MANAGEMENT,
    doc: 'every notification waits in the ledger with the requests, in order, until the new session is operating',
    apply: (state) => step(state, hold),
  },
  inboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 Lifecycle §Operation',
    doc: "the old session's notifications (progress, log, list changes) are still delivered",
    apply: (state) => step(state, accept),
  },
  initializeSucceeded: {
    to: ['initialized', 'shuttingDown'],
    spec: `${SESSION_MANAGEMENT}; MCP 2025-11-25 Lifecycle §Version Negotiation, §Capability Negotiation`,
    doc: 'the new handshake agrees with the session (same version, no capability lost): initialized, then notifications/initialized; otherwise the session ends (sessionChanged)',
    apply(state, event) {
      const change = sessionChange(state, event.version, event.peer);
      if (change !== undefined) return beginShutdown(state, 'sessionChanged', change);
      const effects: ConnectionEffect[] = [{ type: 'negotiated', version: event.version }, { type: 'sendInitialized' }];
      return { state: { kind: 'initialized', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer }, effects };
    },
  },
  initializeFailed: {
    to: ['shuttingDown'],
    spec: 'MCP 2025-11-25 Lifecycle §Version Negotiation (the client disconnects)',
    doc: 'the new handshake failed (error reply, timeout, unsupported version): the session ends',
    apply: (state, event) => beginShutdown(state, event.reason, event.error),
  },
  sessionAssumed: {
    to: [],
    spec: SESSION_MANAGEMENT,
    doc: 'a handshake is in flight on this connection: ignored',
    apply: (state) => step(state, ignore('resuming')),
  },
  sessionAdopted: {
    to: [],
    spec: SESSION_MANAGEMENT,
    doc: 'only a server adopts a session: ignored',
    apply: (state) => step(state, ignore('resuming')),
  },
  sessionExpired: {
    to: ['shuttingDown'],
    spec: `${SESSION_MANAGEMENT} (404 after replacement)`,
    doc: 'a second 404 while the session is being replaced: the server cannot keep a session; the connection fails with SessionExpiredError',
    apply: (state) => beginShutdown(state, 'sessionExpired', new SessionExpiredError('The server forgot the session again while it was being replaced')),
  },
  ...discoveryIgnoredRows<'resuming'>('resuming a legacy session'),
  ...liveClosingRows<'resuming'>(),
};

const EXPIRED_TO: readonly ConnectionStage[] = ['resuming', 'shuttingDown'];

/**
 * The `sessionExpired` row of Initialized and Operating. Client: the handshake runs again to
 * continue the session (`reinitialize`), remembering what it had so the answer can be checked
 * against it — unless the forgotten session was itself a replacement that answered nothing
 * (404 after replacement): then the connection fails. Server: ignored.
 */
export function sessionExpiredRow<K extends 'initialized' | 'operating'>() {
  return {
    to: EXPIRED_TO,
    spec: `${SESSION_MANAGEMENT} (404: start a new session with initialize)`,
    doc: 'client: the server forgot the session; run the handshake again to continue it, unless the session was a replacement that answered nothing (404 after replacement: fail with SessionExpiredError)',
    apply: (state: StateOf<K>, event: EventOf<'sessionExpired'>): ConnectionStep => {
      if (state.config.role !== 'client') return step(state, ignore('only a client resumes a session'));
      if (event.replacement && !event.answered) {
        return beginShutdown(state, 'sessionExpired', new SessionExpiredError('The server forgot the session again, right after it was replaced and before it answered anything'));
      }
      return step(
        { kind: 'initializing', phase: 'resuming', config: state.config, version: state.version, peer: state.peer, initializeSent: false },
        { type: 'reinitialize' },
      );
    },
  };
}

/**
 * What a resumed session may not change (MCP 2025-11-25 Transports §Session Management: after a
 * 404 the client starts a new session; continuing the old one is sound only if the server
 * agrees with it): the protocol version, and every capability the old server declared (its
 * top-level entries and their flags such as `resources.subscribe`). Undefined when the new
 * handshake agrees.
 */
export function sessionChange(previous: { readonly version: string; readonly peer: PeerInfo }, version: string, peer: PeerInfo): SessionChangedError | undefined {
  const before = { version: previous.version, capabilities: previous.peer.capabilities };
  const after = { version, capabilities: peer.capabilities };
  if (version !== previous.version) {
    return new SessionChangedError(`The server forgot the session and now speaks protocol version ${version} instead of ${previous.version}`, before, after);
  }
  const lost = lostCapabilities(previous.peer.capabilities, peer.capabilities);
  if (lost.length === 0) return undefined;
  return new SessionChangedError(`The server forgot the session and no longer declares ${lost.join(', ')}`, before, after);
}

function lostCapabilities(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): string[] {
  const lost: string[] = [];
  for (const [name, value] of Object.entries(before)) {
    if (value === undefined || value === null || value === false) continue;
    // Own members only: a server that declared `constructor` and no longer does has lost it.
    const now = Object.hasOwn(after, name) ? after[name] : undefined;
    if (now === undefined || now === null || now === false) {
      lost.push(name);
      continue;
    }
    if (typeof value !== 'object' || typeof now !== 'object') continue;
    for (const [flag, on] of Object.entries(value)) {
      if (on === true && !(Object.hasOwn(now, flag) && (now as Record<string, unknown>)[flag] === true)) lost.push(`${name}.${flag}`);
    }
  }
  return lost;
}
