/**
 * The connection machine's rows for the states before Operating (MCP 2025-11-25 basic/lifecycle):
 * Uninitialized,
 * Initializing (a handshake in flight, a session being resumed after it expired, or — modern
 * era, client — `server/discover` in flight) and Initialized. Pure: no I/O, no clock.
 */
import {
  CANCELLED,
  DISCOVER,
  INITIALIZE,
  INITIALIZED_NOTIFICATION,
  LOG_MESSAGE,
  PING,
  PROGRESS,
  accept,
  beginShutdown,
  defer,
  discoveryIgnoredRows,
  drop,
  hold,
  ignore,
  liveClosingRows,
  refuse,
  rejectInbound,
  replayDeferred,
  sessionExpiredRow,
  step,
  type ConnectionTable,
  type StateOf,
} from './connection-steps.js';
import { SessionChangedError } from '../errors/errors.js';
import { revisionFor } from '../revisions/resolve-version.js';
import { selfDescribedStart } from './connection-modern.js';
import type { ConnectionEffect, PeerInfo } from './connection-types.js';

export const UNINITIALIZED: ConnectionTable['uninitialized'] = {
  outboundRequest: {
    to: ['initializing'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization, MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 basic/versioning §Backward Compatibility, MCP 2026-07-28 server/discover (modern discovery)',
    doc: 'client: initialize starts the handshake, server/discover the modern discovery; ping is always allowed; anything else is refused, or held in the ledger until Operating when it may wait',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'client') {
        return step({ kind: 'initializing', config: state.config }, accept);
      }
      if (event.method === DISCOVER && state.config.role === 'client') {
        return step({ kind: 'initializing', config: state.config, discovering: true }, accept);
      }
      if (state.config.role === 'client' && event.waitForOperating === true) return step(state, hold);
      return step(state, refuse(`Cannot send ${event.method} before initialization`));
    },
  },
  inboundRequest: {
    to: ['initializing', 'operating'],
    spec: 'MCP 2025-11-25 basic/lifecycle; MCP 2025-11-25 basic/index §Messages, basic/utilities/ping; MCP 2026-07-28 basic/versioning §Backward Compatibility dual-era server, MCP 2026-07-28 basic/index §Statelessness',
    doc: 'server: initialize starts the handshake; a request whose _meta names a served modern version starts operating (another version: -32022); ping is answered; any other request gets an error reply and no handler runs',
    apply(state, event) {
      const modern = selfDescribedStart(state, event);
      if (modern !== undefined) return modern;
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'server') {
        return step({ kind: 'initializing', config: state.config }, accept);
      }
      return step(state, rejectInbound(`Received ${event.method} before initialization; send initialize first`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'server may send log notifications; nothing else before the handshake',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === LOG_MESSAGE) return step(state, accept);
      return step(state, refuse(`Cannot send ${event.method} before initialization`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle; MCP 2025-11-25 basic/index §Messages',
    doc: 'notifications before the handshake are dropped (never answered); a client accepts server log messages',
    apply(state, event) {
      if (state.config.role === 'client' && event.method === LOG_MESSAGE) return step(state, accept);
      return step(state, drop(`${event.method} before initialization`));
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'no handshake in flight: ignored',
    apply: (state) => step(state, ignore('no initialize in flight')),
  },
  initializeFailed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'no handshake in flight: ignored',
    apply: (state) => step(state, ignore('no initialize in flight')),
  },
  sessionAssumed: {
    to: ['operating'],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP (stateless Streamable HTTP: the handshake was answered on another request)',
    doc: 'a stateless exchange starts operating at the version its transport carries',
    apply: (state, event) =>
      step({ kind: 'operating', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer }, { type: 'negotiated', version: event.version }),
  },
  sessionAdopted: {
    to: ['operating'],
    spec: 'MCP 2025-11-25 basic/transports §Session Management (one session id, served by whichever instance runs it); docs/guide/lifecycle.md',
    doc: 'server, scale-out: the instance running the session died; this one adopts it from the shared record, operating at its negotiated version',
    apply(state, event) {
      if (state.config.role !== 'server') return step(state, ignore('only a server adopts a session'));
      return step({ kind: 'operating', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer }, { type: 'negotiated', version: event.version });
    },
  },
  sessionExpired: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Session Management',
    doc: 'no session yet: ignored',
    apply: (state) => step(state, ignore('no session to resume')),
  },
  ...discoveryIgnoredRows<'uninitialized'>('not discovering'),
  ...liveClosingRows<'uninitialized'>(),
};

export const INITIALIZING: ConnectionTable['initializing'] = {
  outboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'only ping while the handshake is in flight; a second initialize is refused. Resuming an expired session: the machine\'s own initialize once; a request marked waitForOperating waits in the ledger like during the first handshake, others go to the transport (which holds them until the new session is up)',
    apply(state, event) {
      if (state.discovering === true) {
        // Modern era: discovery may be retried at another version (-32022); nothing else goes out yet.
        if (event.method === DISCOVER) return step(state, accept);
        if (event.method === INITIALIZE) return step(state, refuse('server/discover is in flight; initialize follows only if the server turns out to be legacy'));
        if (event.waitForOperating === true) return step(state, hold);
        return step(state, refuse(`Cannot send ${event.method} while discovering the server`));
      }
      const resuming = state.resuming;
      if (resuming !== undefined) {
        if (event.method === PING) return step(state, accept);
        if (event.method !== INITIALIZE) return step(state, state.config.role === 'client' && event.waitForOperating === true ? hold : accept);
        if (resuming.initializeSent) return step(state, refuse('initialize is already in flight'));
        return step({ ...state, resuming: { ...resuming, initializeSent: true } }, accept);
      }
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('initialize is already in flight'));
      if (state.config.role === 'client' && event.waitForOperating === true) return step(state, hold);
      return step(state, refuse(`Cannot send ${event.method} while initializing`));
    },
  },
  inboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle; MCP 2025-11-25 basic/utilities/ping; JSON-RPC arrival order',
    doc: 'ping is answered and a second initialize refused at once; the server holds everything else back until initialize is answered (arrival order); the client refuses it',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('initialize is already in progress'));
      if (state.config.role === 'server') return step(state, defer);
      if (state.resuming !== undefined) return step(state, accept); // the old session's traffic still arrives
      return step(state, rejectInbound(`Received ${event.method} before initialization completed`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle, MCP 2025-11-25 basic/utilities/cancellation (initialize is never cancelled); MCP 2025-11-25 basic/utilities/cancellation',
    doc: 'server may log; the client never cancels initialize; nothing else yet (resuming: the session\'s notifications, held by the transport)',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === LOG_MESSAGE) return step(state, accept);
      if (state.resuming !== undefined && event.method !== INITIALIZED_NOTIFICATION) return step(state, accept);
      if (state.discovering === true && event.method === CANCELLED) return step(state, accept); // server/discover may be cancelled
      if (event.method === CANCELLED) return step(state, refuse('initialize cannot be cancelled'));
      return step(state, refuse(`Cannot send ${event.method} while initializing`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle, MCP 2025-11-25 basic/utilities/cancellation',
    doc: 'server: held back until initialize is answered (so an early initialized is never lost); client accepts log and progress; others are dropped',
    apply(state, event) {
      if (state.config.role === 'server') return step(state, defer);
      if (state.resuming !== undefined) return step(state, accept);
      if (state.config.role === 'client' && (event.method === LOG_MESSAGE || event.method === PROGRESS)) {
        return step(state, accept);
      }
      return step(state, drop(`${event.method} while initializing`));
    },
  },
  initializeSucceeded: {
    to: ['initialized', 'shuttingDown'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Version Negotiation, MCP 2025-11-25 basic/lifecycle §Initialization; MCP 2025-11-25 basic/transports §Streamable HTTP Sessions',
    doc: 'version agreed: client then sends notifications/initialized; server has sent its InitializeResult and handles what arrived meanwhile. Resuming: a new version or a lost capability ends the session (sessionChanged)',
    apply(state, event) {
      const change = state.resuming === undefined ? undefined : sessionChange(state.resuming, event.version, event.peer);
      if (change !== undefined) return beginShutdown(state, 'sessionChanged', change);
      const next: StateOf<'initialized'> = { kind: 'initialized', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer };
      const effects: ConnectionEffect[] = [{ type: 'negotiated', version: event.version }];
      if (state.config.role === 'client') effects.push({ type: 'sendInitialized' });
      else effects.push(replayDeferred);
      return { state: next, effects };
    },
  },
  initializeFailed: {
    to: ['uninitialized', 'shuttingDown'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Version Negotiation (client MUST disconnect); MCP 2025-11-25 basic/lifecycle §Version Negotiation',
    doc: 'client: disconnect (version mismatch, error reply, timeout); server: the error was answered, back to uninitialized, then what arrived meanwhile',
    apply(state, event) {
      if (state.config.role === 'server') return step({ kind: 'uninitialized', config: state.config }, replayDeferred);
      return beginShutdown(state, event.reason, event.error);
    },
  },
  sessionAssumed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  sessionAdopted: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'this connection has its own handshake in flight: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  sessionExpired: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Session Management',
    doc: 'a handshake is already in flight: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  discovered: {
    to: ['operating'],
    spec: 'MCP 2026-07-28 basic/index §Statelessness, MCP 2026-07-28 basic/versioning, MCP 2026-07-28 server/discover (no handshake: version and server capabilities known = operating)',
    doc: 'client, modern era: server/discover answered at a mutual version; operating at once, held calls go out',
    apply(state, event) {
      if (state.discovering !== true) return step(state, ignore('no discovery in flight'));
      return step(
        { kind: 'operating', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer },
        { type: 'negotiated', version: event.version },
        { type: 'releaseOutbound' },
      );
    },
  },
  discoveryFailed: {
    to: ['uninitialized', 'shuttingDown'],
    spec: 'MCP 2026-07-28 basic/versioning §Backward Compatibility (a legacy server: initialize next; a modern error: no fallback), MCP 2026-07-28 basic/versioning §Protocol Version Negotiation',
    doc: 'client, modern era: a legacy server goes back to uninitialized for the initialize handshake (held calls keep waiting); otherwise the connection ends',
    apply(state, event) {
      if (state.discovering !== true) return step(state, ignore('no discovery in flight'));
      if (event.fallBack) return step({ kind: 'uninitialized', config: state.config });
      return beginShutdown(state, event.reason, event.error);
    },
  },
  ...liveClosingRows<'initializing'>(),
};

export const INITIALIZED: ConnectionTable['initialized'] = {
  outboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'ping only until notifications/initialized has been sent (client) or received (server); a client request that may wait is held',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('Already initialized'));
      if (state.config.role === 'client' && event.waitForOperating === true) return step(state, hold);
      return step(state, refuse(`Cannot send ${event.method} before notifications/initialized`));
    },
  },
  inboundRequest: {
    to: ['operating'],
    spec: 'docs/guide/lifecycle.md initializing (lenient default)',
    doc: 'server: a request after the InitializeResult implies initialized (lenient) or is refused (strict); a second initialize is refused',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, rejectInbound('Already initialized; a second initialize is not allowed'));
      if (state.config.role === 'server' && state.config.strictInitialized) {
        return step(state, rejectInbound(`Received ${event.method} before notifications/initialized`));
      }
      return step({ kind: 'operating', config: state.config, version: state.version, revision: state.revision, peer: state.peer }, accept);
    },
  },
  outboundNotification: {
    to: ['operating'],
    spec: 'MCP 2025-11-25 basic/lifecycle (client MUST send notifications/initialized); MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'client: sending notifications/initialized enters operating; server may only log before it arrives',
    apply(state, event) {
      if (state.config.role === 'client') {
        if (event.method === INITIALIZED_NOTIFICATION) {
          return step({ kind: 'operating', config: state.config, version: state.version, revision: state.revision, peer: state.peer }, accept, { type: 'releaseOutbound' });
        }
        return step(state, refuse(`Cannot send ${event.method} before notifications/initialized`));
      }
      if (event.method === LOG_MESSAGE || event.method === PROGRESS || event.method === CANCELLED) return step(state, accept);
      return step(state, refuse(`Cannot send ${event.method} before notifications/initialized arrived`));
    },
  },
  inboundNotification: {
    to: ['operating'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'server: notifications/initialized enters operating; other notifications are accepted',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === INITIALIZED_NOTIFICATION) {
        return step({ kind: 'operating', config: state.config, version: state.version, revision: state.revision, peer: state.peer }, accept);
      }
      if (event.method === INITIALIZED_NOTIFICATION) return step(state, drop('notifications/initialized sent to a client'));
      return step(state, accept);
    },
  },
  initializeSucceeded: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'already initialized: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  initializeFailed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle',
    doc: 'already initialized: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  sessionAssumed: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'a handshake already happened on this connection: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  sessionAdopted: {
    to: [],
    spec: 'MCP 2025-11-25 basic/transports §Streamable HTTP',
    doc: 'this connection already runs a session: ignored',
    apply: (state) => step(state, ignore('already initialized')),
  },
  sessionExpired: sessionExpiredRow<'initialized'>(),
  ...discoveryIgnoredRows<'initialized'>('a handshake already agreed'),
  ...liveClosingRows<'initialized'>(),
};

/**
 * What a resumed session may not change (MCP 2025-11-25 basic/transports §Streamable HTTP: after a
 * 404 the client starts a new
 * session; continuing the old one is sound only if the server agrees with it): the protocol
 * version, and every capability the old server declared (its top-level entries and their
 * flags such as `resources.subscribe`). Undefined when the new handshake agrees.
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
