/**
 * The one way a session of the Streamable HTTP server comes to life, whichever door it comes
 * through — an `initialize` POST without `Mcp-Session-Id` (MCP 2025-11-25, Transports §Session
 * Management), the GET of a legacy HTTP+SSE stream (MCP 2024-11-05, Transports §HTTP with SSE),
 * or a session adopted from a cluster instance that died (docs/cluster.md):
 *
 * ```
 * reserve a place (503 server full, 429 principal full) → session id (minted, or the adopted one)
 *   → transport → the user's `connect` (500 when it fails) → first exchange (the initialize answer;
 *   a failed handshake ends the session here) → register (session manager, then the cluster's
 *   shared record) → onSessionCreated
 * ```
 *
 * The reservation is given back whatever step failed before the session was registered.
 */
import { ErrorCode } from '@statemcp/protocol';
import type { ClusterMembership } from './cluster-relay.js';
import { HttpErrorCode, errorResponse } from './http-response.js';
import { HttpSession, type AnySessionTransport } from './http-session.js';
import { admissionRefusal } from './principal-limits.js';
import type { SessionOpening } from './server-options.js';
import type { SessionManager } from './session-manager.js';

/** What the opener needs from its server. */
export interface SessionOpenerParts {
  readonly manager: SessionManager<HttpSession>;
  /** True once the server is closing: no session opens any more. */
  readonly isClosed: () => boolean;
  /** Runs the user's `connect` on a transport; false (the transport closed) when it failed. */
  readonly connect: (transport: AnySessionTransport, opening: SessionOpening) => Promise<boolean>;
  /** The cluster this server is a member of, if any (joined after the opener is made). */
  readonly cluster: () => ClusterMembership | undefined;
  readonly onSessionCreated: ((sessionId: string) => void) | undefined;
}

/** How one session is opened. */
export interface SessionPlan<T extends AnySessionTransport> {
  /** Who opens the session (its principal is what it is bound to), as `connect` sees it. */
  readonly opening: SessionOpening;
  /** The id of a session adopted from another instance; a fresh one is minted when absent. */
  readonly adoptedId?: string;
  readonly transport: (sessionId: string) => T;
  /**
   * The exchange the session must pass before it is registered (the `initialize` answer): its
   * HTTP answer and whether the session lives on (its handshake succeeded, it is still open).
   */
  readonly first?: (transport: T, sessionId: string) => Promise<{ answer: Response; live: boolean }>;
  /**
   * What the cluster's shared record of the session starts with (the negotiated version and the
   * `initialize` request); absent when the session is not shared (an adopted one already is).
   */
  readonly share?: (transport: T) => { protocolVersion: string | undefined; initialize: unknown };
}

/** A session that opened (with the answer of its first exchange, if it had one), or the refusal to send. */
export type Opened<T> = { readonly refused: Response } | { readonly refused?: undefined; readonly sessionId: string; readonly transport: T; readonly answer: Response | undefined };

export type SessionOpener = <T extends AnySessionTransport>(plan: SessionPlan<T>) => Promise<Opened<T>>;

export function createSessionOpener(parts: SessionOpenerParts): SessionOpener {
  const { manager } = parts;
  const reserve = (principal: string | undefined, adoptedId: string | undefined): Response | undefined => {
    if (adoptedId === undefined) return admissionRefusal(parts.isClosed() ? 'maxSessions' : manager.admit(principal), manager.maxSessionsPerPrincipal);
    if (parts.isClosed() || manager.peek(adoptedId) !== undefined || !manager.reserve(principal)) {
      return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: the session cannot be adopted here');
    }
    return undefined;
  };
  return async <T extends AnySessionTransport>(plan: SessionPlan<T>): Promise<Opened<T>> => {
    const { principal } = plan.opening;
    const refusal = reserve(principal, plan.adoptedId);
    if (refusal !== undefined) return { refused: refusal };
    let reservationHeld = true;
    try {
      const sessionId = plan.adoptedId ?? manager.mintId();
      const transport = plan.transport(sessionId);
      if (!(await parts.connect(transport, plan.opening))) return { refused: errorResponse(500, ErrorCode.InternalError, 'Internal error: could not start a session') };
      const first = await plan.first?.(transport, sessionId);
      if (first !== undefined && (!first.live || parts.isClosed())) {
        await transport.terminate('local', { reason: 'initialize failed' });
        return { refused: first.answer };
      }
      manager.add(sessionId, new HttpSession(transport, principal));
      reservationHeld = false;
      const shared = plan.share?.(transport);
      const unshared =
        shared === undefined ? undefined : await parts.cluster()?.register(sessionId, shared.protocolVersion, shared.initialize, principal, () => manager.delete(sessionId, 'server-closed'));
      if (unshared !== undefined) return { refused: unshared };
      parts.onSessionCreated?.(sessionId);
      return { sessionId, transport, answer: first?.answer };
    } finally {
      if (reservationHeld) manager.release(principal);
    }
  };
}
