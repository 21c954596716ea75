/**
 * The connection machine's rows for the legacy handshake (MCP 2025-11-25 Lifecycle
 * §Initialization): Uninitialized, Initializing in phase `handshaking` (`initialize` in
 * flight) and Initialized. Initializing's other phases have their own files:
 * `connection-resuming.ts` (a session the server forgot) and `connection-discovering.ts`
 * (modern era, `server/discover`). Pure: no I/O, no clock.
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
  step,
  type ConnectionTable,
  type StateOf,
} from './connection-steps.js';
import { revisionFor } from '../revisions/resolve-version.js';
import { selfDescribedStart } from './connection-modern.js';
import { sessionExpiredRow } from './connection-resuming.js';
import type { ConnectionEffect } from './connection-types.js';

export const UNINITIALIZED: ConnectionTable['uninitialized'] = {
  outboundRequest: {
    to: ['handshaking', 'discovering'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization, MCP 2025-11-25 basic/utilities/ping; MCP 2026-07-28 basic/versioning §Backward Compatibility, MCP 2026-07-28 server/discover (modern discovery)',
    doc: 'client: initialize starts the handshake, server/discover the modern discovery; ping is always allowed; anything else is refused, or held in the ledger until Operating when it may wait',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'client') {
        return step({ kind: 'initializing', phase: 'handshaking', config: state.config }, accept);
      }
      if (event.method === DISCOVER && state.config.role === 'client') {
        return step({ kind: 'initializing', phase: 'discovering', config: state.config }, accept);
      }
      if (state.config.role === 'client' && event.waitForOperating === true) return step(state, hold);
      return step(state, refuse(`Cannot send ${event.method} before initialization`));
    },
  },
  inboundRequest: {
    to: ['handshaking', 'operating'],
    spec: 'MCP 2025-11-25 basic/lifecycle; MCP 2025-11-25 basic/index §Messages, basic/utilities/ping; MCP 2026-07-28 basic/versioning §Backward Compatibility dual-era server, MCP 2026-07-28 basic/index §Statelessness',
    doc: 'server: initialize starts the handshake; a request whose _meta names a served modern version starts operating (another version: -32022); ping is answered; any other request gets an error reply and no handler runs',
    apply(state, event) {
      const modern = selfDescribedStart(state, event);
      if (modern !== undefined) return modern;
      if (event.method === PING) return step(state, accept);
      if (event.method === INITIALIZE && state.config.role === 'server') {
        return step({ kind: 'initializing', phase: 'handshaking', config: state.config }, accept);
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

export const HANDSHAKING: ConnectionTable['handshaking'] = {
  outboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle §Initialization (only pings and logging before the handshake completes)',
    doc: 'only ping while the handshake is in flight; a second initialize is refused; a client request that may wait is held in the ledger until operating',
    apply(state, event) {
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
      return step(state, rejectInbound(`Received ${event.method} before initialization completed`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 basic/lifecycle, MCP 2025-11-25 basic/utilities/cancellation (initialize is never cancelled)',
    doc: 'server may log; the client never cancels initialize; nothing else yet',
    apply(state, event) {
      if (state.config.role === 'server' && event.method === LOG_MESSAGE) return step(state, accept);
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
      if (event.method === LOG_MESSAGE || event.method === PROGRESS) return step(state, accept);
      return step(state, drop(`${event.method} while initializing`));
    },
  },
  initializeSucceeded: {
    to: ['initialized'],
    spec: 'MCP 2025-11-25 basic/lifecycle §Version Negotiation, MCP 2025-11-25 basic/lifecycle §Initialization',
    doc: 'version agreed: client then sends notifications/initialized; server has sent its InitializeResult and handles what arrived meanwhile',
    apply(state, event) {
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
    spec: 'MCP 2025-11-25 Transports §Session Management (a session id is issued with the InitializeResult)',
    doc: 'no session yet, the first handshake is in flight: ignored',
    apply: (state) => step(state, ignore('initialize in flight')),
  },
  ...discoveryIgnoredRows<'handshaking'>('no discovery in flight'),
  ...liveClosingRows<'handshaking'>(),
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
    spec: 'MCP 2025-11-25 basic/lifecycle (client MUST send notifications/initialized)',
    doc: 'client: sending notifications/initialized enters operating (a notification that may wait is held until then); server may only log before it arrives',
    apply(state, event) {
      if (state.config.role === 'client') {
        if (event.method === INITIALIZED_NOTIFICATION) {
          return step({ kind: 'operating', config: state.config, version: state.version, revision: state.revision, peer: state.peer }, accept, { type: 'releaseOutbound' });
        }
        if (event.waitForOperating === true) return step(state, hold);
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
