/**
 * Types of the connection state machine (both eras): its states, the events fed to it,
 * and the effects it asks the session runner to perform. States are a discriminated union
 * whose variants carry only the data valid in them. Initializing has three phases, each a
 * variant of its own with its own rows: `handshaking` (the `initialize` handshake, MCP
 * 2025-11-25 Lifecycle §Initialization), `resuming` (client: the server forgot the HTTP session
 * and a new handshake continues it, MCP 2025-11-25 Transports §Session Management) and
 * `discovering` (client, 2026-07-28: `server/discover` instead of a handshake).
 */

import type { Revision } from '../revisions/types.js';

/** Which side of a connection a session is. */
export type Role = 'client' | 'server';

/** Settings fixed for the life of a connection, carried by every state. */
export interface ConnectionConfig {
  readonly role: Role;
  /**
   * Server only: reject a normal request that arrives after the InitializeResult was sent
   * but before `notifications/initialized` (default false: accept it as implying
   * `initialized`, since HTTP can reorder the two).
   */
  readonly strictInitialized: boolean;
  /**
   * Server only: the stateless (2026-07-28+) versions this side serves, newest first
   * (`servedStatelessVersions`). A request that names one of them in its own `_meta` needs no
   * handshake (MCP 2026-07-28, Lifecycle); empty or absent means the server speaks only the
   * legacy era.
   */
  readonly modernVersions?: readonly string[];
}

/** What each side learned about the other during the handshake. */
export interface PeerInfo {
  readonly capabilities: Readonly<Record<string, unknown>>;
  readonly info: Readonly<{ name: string; version: string } & Record<string, unknown>>;
  readonly instructions?: string;
}

/** Why a connection ended. */
export type CloseReason =
  | 'closed'
  | 'peerClosed'
  | 'transportError'
  | 'versionMismatch'
  | 'sessionChanged'
  | 'sessionExpired'
  | 'initializeFailed'
  | 'fatalError'
  | 'terminated'
  | 'closeTimeout';

/** The three phases of Initializing, each a variant of its own (see the file header). */
export type InitializingPhase = 'handshaking' | 'resuming' | 'discovering';

/** A connection's state: one of the six kinds (Initializing in one of its three phases), with the data that state holds. */
export type ConnectionState =
  | { readonly kind: 'uninitialized'; readonly config: ConnectionConfig }
  /** Either role: `initialize` is in flight (client: sent; server: being answered). */
  | { readonly kind: 'initializing'; readonly phase: 'handshaking'; readonly config: ConnectionConfig }
  /**
   * Client: the server forgot the session (HTTP 404) and a new handshake continues it. It must
   * agree with what the session had (`version`, `peer`); `initializeSent` is set once the
   * machine's own `initialize` has gone out. Everything else waits in the ledger meanwhile.
   */
  | {
      readonly kind: 'initializing';
      readonly phase: 'resuming';
      readonly config: ConnectionConfig;
      readonly version: string;
      readonly peer: PeerInfo;
      readonly initializeSent: boolean;
    }
  /**
   * Client, modern era: `server/discover` is in flight (no handshake). The answer moves the
   * connection straight to Operating (`discovered`); a legacy server sends it back to
   * Uninitialized for the `initialize` handshake (`discoveryFailed` with `fallBack`).
   */
  | { readonly kind: 'initializing'; readonly phase: 'discovering'; readonly config: ConnectionConfig }
  /**
   * `revision`: the revision in force, that of `version` (`revisionFor`): what the session
   * validates messages against. In the stateless era each request names its own version, and
   * Operating moves to the revision of the request being handled (`connection-modern.ts`).
   */
  | { readonly kind: 'initialized'; readonly config: ConnectionConfig; readonly version: string; readonly revision: Revision; readonly peer: PeerInfo }
  | { readonly kind: 'operating'; readonly config: ConnectionConfig; readonly version: string; readonly revision: Revision; readonly peer: PeerInfo }
  | {
      readonly kind: 'shuttingDown';
      readonly config: ConnectionConfig;
      readonly reason: CloseReason;
      readonly error?: Error;
    }
  | { readonly kind: 'terminated'; readonly config: ConnectionConfig; readonly reason: CloseReason; readonly error?: Error };

/** The six connection states by name. */
export type ConnectionStateKind = ConnectionState['kind'];

/**
 * What the transition table is keyed by: a state's kind, or Initializing's phase (each phase
 * has its own rows).
 */
export type ConnectionStage = Exclude<ConnectionStateKind, 'initializing'> | InitializingPhase;

/** Every {@link ConnectionStage}, in lifecycle order. */
export const CONNECTION_STAGES: readonly ConnectionStage[] = Object.freeze([
  'uninitialized',
  'handshaking',
  'resuming',
  'discovering',
  'initialized',
  'operating',
  'shuttingDown',
  'terminated',
]);

/** The stage a state is in: its kind, or its phase while Initializing. */
export function stageOf(state: ConnectionState): ConnectionStage {
  return state.kind === 'initializing' ? state.phase : state.kind;
}

/** The kind of state a stage belongs to (the three phases are Initializing). */
export function kindOfStage(stage: ConnectionStage): ConnectionStateKind {
  return stage === 'handshaking' || stage === 'resuming' || stage === 'discovering' ? 'initializing' : stage;
}

/** Every {@link ConnectionStateKind}, in lifecycle order. */
export const CONNECTION_STATE_KINDS: readonly ConnectionStateKind[] = Object.freeze([
  'uninitialized',
  'initializing',
  'initialized',
  'operating',
  'shuttingDown',
  'terminated',
]);

/** An input of the connection machine: a message, a handshake outcome, a close request, a transport event, a deadline. */
export type ConnectionEvent =
  /**
   * This side wants to send a request with `method` (gate). `initialize` starts the client
   * handshake. `waitForOperating`: a client's request made before the handshake finished may
   * wait in the ledger until Operating instead of being refused.
   */
  | { readonly type: 'outboundRequest'; readonly method: string; readonly waitForOperating?: boolean }
  /**
   * A request with `method` arrived (gate). `initialize` starts the server handshake.
   * `declaredVersion`: the version the request names in its own `_meta`
   * (`io.modelcontextprotocol/protocolVersion`, the 2026-07-28 era, MCP 2026-07-28 basic/index
   * §_meta), if any.
   */
  | { readonly type: 'inboundRequest'; readonly method: string; readonly declaredVersion?: string }
  /**
   * This side wants to send a notification (gate). `notifications/initialized` completes the
   * client handshake. `waitForOperating`: the notification may wait in the ledger until
   * Operating (one the transport bounced because the server forgot the session).
   */
  | { readonly type: 'outboundNotification'; readonly method: string; readonly waitForOperating?: boolean }
  /** A notification arrived (gate). `notifications/initialized` completes the server handshake. */
  | { readonly type: 'inboundNotification'; readonly method: string }
  /** Client: an acceptable InitializeResult arrived. Server: the InitializeResult was sent. */
  | { readonly type: 'initializeSucceeded'; readonly version: string; readonly peer: PeerInfo }
  /** Client: initialize failed (error reply, timeout, unsupported version). Server: initialize was answered with an error. */
  | { readonly type: 'initializeFailed'; readonly reason: CloseReason; readonly error: Error }
  /**
   * Client, modern era: `server/discover` answered at a version both sides speak, with the
   * server's capabilities. There is no handshake to finish: the connection is Operating.
   */
  | { readonly type: 'discovered'; readonly version: string; readonly peer: PeerInfo }
  /**
   * Client, modern era: discovery failed. `fallBack`: the server looks legacy (any error
   * but a modern one, or no answer; MCP 2026-07-28 basic/versioning §Backward Compatibility), so
   * the `initialize` handshake runs next;
   * otherwise the connection ends with `reason`.
   */
  | { readonly type: 'discoveryFailed'; readonly fallBack: boolean; readonly reason: CloseReason; readonly error: Error }
  /**
   * The handshake happened elsewhere: stateless HTTP serves each request on a fresh
   * connection, so the connection starts as if initialized at `version`.
   */
  | { readonly type: 'sessionAssumed'; readonly version: string; readonly peer: PeerInfo }
  /**
   * Server, scale-out: the instance that ran this session's machine is gone and this instance
   * takes the session over from its shared record (the version it negotiated and the client's
   * capabilities). The handshake happened on the dead instance, so the machine starts in
   * Operating; it stays one machine, now running here.
   */
  | { readonly type: 'sessionAdopted'; readonly version: string; readonly peer: PeerInfo }
  /**
   * Client: the transport reports that the peer forgot the session (Streamable HTTP 404 for
   * the session id). The handshake runs again to continue it, unless the forgotten session
   * was itself a `replacement` for an expired one that `answered` no request: then the server
   * cannot keep a session and the connection fails (a second 404 after the replacement).
   */
  | { readonly type: 'sessionExpired'; readonly replacement: boolean; readonly answered: boolean }
  /** `close()` was called (graceful). */
  | { readonly type: 'closeRequested' }
  /** `terminate()` was called (forceful). */
  | { readonly type: 'terminateRequested' }
  /** The transport reported that it closed. */
  | { readonly type: 'transportClosed'; readonly initiator: 'local' | 'remote' | 'error'; readonly error?: Error }
  /** Something this side cannot recover from. */
  | { readonly type: 'fatalError'; readonly error: Error }
  /** Every pending request has settled after the transport went away. */
  | { readonly type: 'drained' }
  /** The close deadline passed while shutting down. */
  | { readonly type: 'closeDeadlineExpired' };

/** The connection machine's events by name. */
export type ConnectionEventType = ConnectionEvent['type'];

/** Every {@link ConnectionEventType}. */
export const CONNECTION_EVENT_TYPES: readonly ConnectionEventType[] = Object.freeze([
  'outboundRequest',
  'inboundRequest',
  'outboundNotification',
  'inboundNotification',
  'initializeSucceeded',
  'initializeFailed',
  'discovered',
  'discoveryFailed',
  'sessionAssumed',
  'sessionAdopted',
  'sessionExpired',
  'closeRequested',
  'terminateRequested',
  'transportClosed',
  'fatalError',
  'drained',
  'closeDeadlineExpired',
]);

/** What the runner must do after a transition. `transition` itself performs no I/O. */
export type ConnectionEffect =
  /** Gate passed: send / dispatch the message. */
  | { readonly type: 'accept' }
  /** Gate refused an inbound request: answer it with this JSON-RPC error; no handler runs. */
  | { readonly type: 'rejectInbound'; readonly code: number; readonly message: string; readonly data?: unknown }
  /** Gate refused an outbound message: fail the call locally with a typed error. */
  | { readonly type: 'refuseOutbound'; readonly error: 'invalidState' | 'connectionClosed'; readonly message: string }
  /** Gate dropped an inbound notification (the spec says not to answer notifications). */
  | { readonly type: 'dropInbound'; readonly reason: string }
  /**
   * Gate held an inbound message back: the server is answering `initialize`, and inbound
   * messages are handled in arrival order, so this one waits until the handshake step is done.
   */
  | { readonly type: 'deferInbound' }
  /** Handle the held-back inbound messages now, in arrival order (after the initialize reply went out). */
  | { readonly type: 'replayDeferred' }
  /** Gate held an outbound message (request or notification) back: it waits in the ledger until the connection is Operating. */
  | { readonly type: 'holdOutbound' }
  /** Client, now Operating: send the messages held back, in order, once `notifications/initialized` has gone out. */
  | { readonly type: 'releaseOutbound' }
  /** Client: send `notifications/initialized` now. */
  | { readonly type: 'sendInitialized' }
  /** Client: run the handshake again with the parameters of the first one (the session expired). */
  | { readonly type: 'reinitialize' }
  /** The protocol version is fixed; tell the transport (HTTP `MCP-Protocol-Version`). */
  | { readonly type: 'negotiated'; readonly version: string }
  /** Settle every pending outbound request; `notify` sends `notifications/cancelled` (never for initialize). */
  | { readonly type: 'settleOutbound'; readonly notify: boolean }
  /** Abort every in-flight inbound handler and suppress its reply. */
  | { readonly type: 'abortInbound' }
  /** Close the transport gracefully. */
  | { readonly type: 'closeTransport' }
  /** Close the transport forcefully. */
  | { readonly type: 'terminateTransport' }
  /** Arm the close deadline timer. */
  | { readonly type: 'armCloseDeadline' }
  /** Feed this event to the machine next. */
  | { readonly type: 'dispatch'; readonly event: ConnectionEvent }
  /** Terminal bookkeeping: clear timers, resolve `close()`, fire `onclose` once. */
  | { readonly type: 'finalize' }
  /** The event means nothing in this state (recorded for inspection). */
  | { readonly type: 'ignore'; readonly reason: string };

/** What one transition yields: the next state and the effects the session runner performs. */
export interface ConnectionStep {
  readonly state: ConnectionState;
  readonly effects: readonly ConnectionEffect[];
}
