/**
 * The connection machine's rules for the stateless era (2026-07-28+, MCP 2026-07-28 basic/index),
 * server role.
 * A modern connection has no handshake: it moves from Uninitialized straight to Operating,
 * either because the transport says so (stateless HTTP: `sessionAssumed` at the request's
 * version) or because the first request describes itself (its `_meta` names a modern version
 * the server serves: stdio, WebSocket, in-memory). In Operating every request is checked
 * again: each one carries its own version, and nothing is inferred from earlier requests
 * (MCP 2026-07-28 basic/index §Statelessness). The version and the client's capabilities are per
 * request, so the Operating state
 * of a modern connection holds an anonymous peer. Pure: no I/O, no clock.
 *
 * ```
 * Uninitialized ──request whose _meta names a served modern version──▶ Operating(modern)
 *       │  └─ _meta names another version: -32022 {supported, requested}, stays
 *       └──sessionAssumed(modern version) (stateless HTTP)──────────▶ Operating(modern)
 * Operating(modern): initialize → -32601; an unserved _meta version → -32022; the server sends no requests
 * ```
 */
import { ErrorCode } from '../jsonrpc/messages.js';
import { accept, accepted, INITIALIZE, rejectInbound, refuse, step, type EventOf, type StateOf } from './connection-steps.js';
import type { ConnectionConfig, ConnectionStep, PeerInfo } from './connection-types.js';

/** The peer of a modern connection: who the client is and what it declared travel with each request. */
export const PER_REQUEST_PEER: PeerInfo = Object.freeze({ capabilities: Object.freeze({}), info: Object.freeze({ name: 'unknown', version: 'unknown' }) });

/** True when this (server) side serves `version` statelessly. */
export function servesModern(config: ConnectionConfig, version: string | undefined): boolean {
  return version !== undefined && config.role === 'server' && (config.modernVersions ?? []).includes(version);
}

/**
 * The -32022 answer to a request that names a version this server does not serve (MCP 2026-07-28
 * basic/versioning §Protocol Version Negotiation, MCP 2026-07-28 basic/versioning).
 */
function unsupportedVersion(state: StateOf<'uninitialized'> | StateOf<'operating'>, requested: string): ConnectionStep {
  const supported = [...(state.config.modernVersions ?? [])].sort().reverse();
  return step(state, rejectInbound(`Unsupported protocol version: ${requested}`, ErrorCode.UnsupportedProtocolVersion, { supported, requested }));
}

/**
 * Server, Uninitialized: a request that describes itself (MCP 2026-07-28 basic/versioning
 * §Backward Compatibility "dual-era server":
 * modern `_meta` ⇒ serve statelessly). Undefined when the request is not self-describing or
 * this side is not a modern-capable server: the legacy rules apply.
 */
export function selfDescribedStart(state: StateOf<'uninitialized'>, event: EventOf<'inboundRequest'>): ConnectionStep | undefined {
  const declared = event.declaredVersion;
  if (declared === undefined || state.config.role !== 'server' || (state.config.modernVersions ?? []).length === 0) return undefined;
  if (event.method === INITIALIZE) return undefined; // a legacy handshake, whatever its _meta says
  if (!servesModern(state.config, declared)) return unsupportedVersion(state, declared);
  return step({ kind: 'operating', config: state.config, version: declared, peer: PER_REQUEST_PEER }, { type: 'negotiated', version: declared }, accept);
}

/**
 * Server, Operating at a modern version: every request stands alone (MCP 2026-07-28 basic/index
 * §Statelessness). `initialize` does
 * not exist in this era (-32601, HTTP 404); a request naming a version the server does not
 * serve gets -32022; a request without a version passes, and params validation answers -32602
 * for its missing `_meta` (MCP 2026-07-28 basic/index §_meta). Undefined when the connection is not modern.
 */
export function modernInbound(state: StateOf<'operating'>, event: EventOf<'inboundRequest'>): ConnectionStep | undefined {
  if (!servesModern(state.config, state.version)) return undefined;
  if (event.method === INITIALIZE) return step(state, rejectInbound('Method not found: initialize (2026-07-28 has no handshake; use server/discover)', ErrorCode.MethodNotFound));
  const declared = event.declaredVersion;
  if (declared !== undefined && !servesModern(state.config, declared)) return unsupportedVersion(state, declared);
  return accepted(state);
}

/**
 * Server, Operating at a modern version: servers never send requests (MCP 2026-07-28
 * basic/patterns/mrtr: input comes back through MRTR).
 */
export function modernOutbound(state: StateOf<'operating'>, event: EventOf<'outboundRequest'>): ConnectionStep | undefined {
  if (!servesModern(state.config, state.version)) return undefined;
  return step(state, refuse(`Cannot send ${event.method}: servers send no requests in ${state.version} (use an InputRequiredResult)`));
}
