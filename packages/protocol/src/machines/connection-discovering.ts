/**
 * The connection machine's rows for Initializing in phase `discovering` (client, 2026-07-28):
 * `server/discover` is in flight instead of a handshake. The answer moves the connection
 * straight to Operating; a server that turns out to be legacy sends it back to Uninitialized
 * for the `initialize` handshake (MCP 2026-07-28 specification, `server/discover`; MCP
 * 2025-11-25 Transports §Backwards Compatibility). Pure: no I/O, no clock.
 *
 * ```
 * uninitialized ──server/discover──▶ initializing(discovering) ──discovered──▶ operating
 *       ▲                                   │
 *       └──discoveryFailed (legacy server)──┤──discoveryFailed (a modern error)──▶ shuttingDown
 * ```
 */
import {
  CANCELLED,
  DISCOVER,
  INITIALIZE,
  LOG_MESSAGE,
  PING,
  PROGRESS,
  accept,
  beginShutdown,
  drop,
  hold,
  ignore,
  liveClosingRows,
  refuse,
  rejectInbound,
  step,
  type ConnectionTable,
} from './connection-steps.js';
import { revisionFor } from '../revisions/resolve-version.js';

const DISCOVERY = 'MCP 2026-07-28 specification, server/discover';
const FALLBACK = 'MCP 2025-11-25 Transports §Backwards Compatibility';

export const DISCOVERING: ConnectionTable['discovering'] = {
  outboundRequest: {
    to: [],
    spec: DISCOVERY,
    doc: 'discovery may be retried at another version; initialize only follows if the server is legacy; a request that may wait is held in the ledger until operating',
    apply(state, event) {
      if (event.method === DISCOVER) return step(state, accept);
      if (event.method === INITIALIZE) return step(state, refuse('server/discover is in flight; initialize follows only if the server turns out to be legacy'));
      if (event.waitForOperating === true) return step(state, hold);
      return step(state, refuse(`Cannot send ${event.method} while discovering the server`));
    },
  },
  inboundRequest: {
    to: [],
    spec: 'MCP 2025-11-25 Lifecycle §Initialization',
    doc: 'ping is answered; anything else (the server knows nothing of this client yet) is refused',
    apply(state, event) {
      if (event.method === PING) return step(state, accept);
      return step(state, rejectInbound(`Received ${event.method} before discovery completed`));
    },
  },
  outboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 Utilities §Cancellation',
    doc: 'server/discover may be cancelled; nothing else yet',
    apply(state, event) {
      if (event.method === CANCELLED) return step(state, accept);
      return step(state, refuse(`Cannot send ${event.method} while discovering the server`));
    },
  },
  inboundNotification: {
    to: [],
    spec: 'MCP 2025-11-25 Lifecycle §Initialization',
    doc: 'log and progress are accepted; others are dropped',
    apply(state, event) {
      if (event.method === LOG_MESSAGE || event.method === PROGRESS) return step(state, accept);
      return step(state, drop(`${event.method} while discovering`));
    },
  },
  initializeSucceeded: {
    to: [],
    spec: DISCOVERY,
    doc: 'no handshake in flight (initialize is refused while discovering): ignored',
    apply: (state) => step(state, ignore('discovering')),
  },
  initializeFailed: {
    to: [],
    spec: DISCOVERY,
    doc: 'no handshake in flight: ignored',
    apply: (state) => step(state, ignore('discovering')),
  },
  discovered: {
    to: ['operating'],
    spec: `${DISCOVERY} (no handshake: version and server capabilities known = operating)`,
    doc: 'server/discover answered at a mutual version: operating at once, held calls go out',
    apply: (state, event) =>
      step(
        { kind: 'operating', config: state.config, version: event.version, revision: revisionFor(event.version), peer: event.peer },
        { type: 'negotiated', version: event.version },
        { type: 'releaseOutbound' },
      ),
  },
  discoveryFailed: {
    to: ['uninitialized', 'shuttingDown'],
    spec: `${FALLBACK} (a legacy server: initialize next; a modern error: no fallback)`,
    doc: 'a legacy server goes back to uninitialized for the initialize handshake (held calls keep waiting); otherwise the connection ends',
    apply(state, event) {
      if (event.fallBack) return step({ kind: 'uninitialized', config: state.config });
      return beginShutdown(state, event.reason, event.error);
    },
  },
  sessionAssumed: {
    to: [],
    spec: DISCOVERY,
    doc: 'discovery is in flight on this connection: ignored',
    apply: (state) => step(state, ignore('discovering')),
  },
  sessionAdopted: {
    to: [],
    spec: DISCOVERY,
    doc: 'only a server adopts a session: ignored',
    apply: (state) => step(state, ignore('discovering')),
  },
  sessionExpired: {
    to: [],
    spec: DISCOVERY,
    doc: 'a modern connection has no session to expire: ignored',
    apply: (state) => step(state, ignore('discovering')),
  },
  ...liveClosingRows<'discovering'>(),
};
