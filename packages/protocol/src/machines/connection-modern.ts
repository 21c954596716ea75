/**
 * The connection machine's rules for the stateless era (MCP 2026-07-28), server role.
 * A modern connection has no handshake: it moves from Uninitialized straight to Operating,
 * either because the transport says so (stateless HTTP: `sessionAssumed` at the request's
 * version) or because the first request describes itself (its `_meta` names a modern version
 * the server serves: stdio, WebSocket, in-memory). In Operating every request is checked
 * again: each one carries its own version, and nothing is inferred from earlier requests.
 * The version of a request is `resolveRequestVersion`'s (the same rule the HTTP server and
 * `server/discover` read), and Operating moves to the revision of the request being handled.
 * The client's capabilities are per request too, so the Operating state of a modern
 * connection holds an anonymous peer. Pure: no I/O, no clock.
 *
 * ```
 * Uninitialized ──request whose _meta names a served modern version──▶ Operating(modern)
 *       │  └─ _meta names another version: -32022 {supported, requested}, stays
 *       └──sessionAssumed(modern version) (stateless HTTP)──────────▶ Operating(modern)
 * Operating(modern): initialize → -32601; an unserved _meta version → -32022; another served one → Operating(its revision);
 *                   the server sends no requests
 * ```
 */
import { ErrorCode } from '../jsonrpc/messages.js';
import { resolveRequestVersion, type UnsupportedVersionRefusal } from '../revisions/resolve-version.js';
import { accept, accepted, INITIALIZE, rejectInbound, refuse, step, type EventOf, type StateOf } from './connection-steps.js';
import type { Revision } from '../revisions/types.js';
import type { ConnectionConfig, ConnectionStep, PeerInfo } from './connection-types.js';

/** The peer of a modern connection: who the client is and what it declared travel with each request. */
export const PER_REQUEST_PEER: PeerInfo = Object.freeze({ capabilities: Object.freeze({}), info: Object.freeze({ name: 'unknown', version: 'unknown' }) });

const NO_VERSIONS: readonly string[] = Object.freeze([]);

/** True when this (server) side serves `version` statelessly. */
export function servesModern(config: ConnectionConfig, version: string | undefined): boolean {
  return version !== undefined && config.role === 'server' && (config.modernVersions ?? NO_VERSIONS).includes(version);
}

/** The -32022 answer to a request that names a version this server does not serve (MCP 2026-07-28, Basic §Versioning). */
function refuseVersion(state: StateOf<'uninitialized'> | StateOf<'operating'>, refusal: UnsupportedVersionRefusal): ConnectionStep {
  return step(state, rejectInbound(refusal.message, refusal.code, refusal.data));
}

/**
 * Server, Uninitialized: a request that describes itself (a dual-era server serves a request
 * whose `_meta` names a stateless version without a handshake). Undefined when the request is
 * not self-describing or this side is not a modern-capable server: the legacy rules apply.
 */
export function selfDescribedStart(state: StateOf<'uninitialized'>, event: EventOf<'inboundRequest'>): ConnectionStep | undefined {
  const declared = event.declaredVersion;
  const served = state.config.modernVersions ?? NO_VERSIONS;
  if (declared === undefined || state.config.role !== 'server' || served.length === 0) return undefined;
  if (event.method === INITIALIZE) return undefined; // a legacy handshake, whatever its _meta says
  const resolved = resolveRequestVersion(served, undefined, declared);
  if (resolved.kind !== 'served') return resolved.kind === 'unsupported' ? refuseVersion(state, resolved.refusal) : undefined;
  return step({ kind: 'operating', config: state.config, version: declared, revision: resolved.revision, peer: PER_REQUEST_PEER }, { type: 'negotiated', version: declared }, accept);
}

/** What the stateless era's rule says of one inbound request (see {@link modernRequestRule}). */
export type ModernRequestVerdict =
  | { readonly kind: 'accept'; readonly version: string; readonly revision: Revision }
  | { readonly kind: 'reject'; readonly code: number; readonly message: string; readonly data?: unknown };

/**
 * The rule of one inbound request at a modern version, as data (MCP 2026-07-28, Basic
 * §Versioning; Lifecycle: no handshake): `initialize` does not exist in this era (-32601, HTTP
 * 404); a request naming a version the server does not serve gets -32022; one naming another
 * served version is served at that revision; one naming none is served at `version` (params
 * validation then answers -32602 for its missing `_meta`). The machine's Operating(modern) row
 * and the session-free dispatcher (`session/stateless-dispatcher.ts`) both apply it.
 */
export function modernRequestRule(served: readonly string[], version: string, revision: Revision, method: string, declared: string | undefined): ModernRequestVerdict {
  if (method === INITIALIZE) return { kind: 'reject', code: ErrorCode.MethodNotFound, message: 'Method not found: initialize (2026-07-28 has no handshake; use server/discover)' };
  if (declared === undefined || declared === version) return { kind: 'accept', version, revision };
  const resolved = resolveRequestVersion(served, undefined, declared);
  if (resolved.kind === 'unsupported') return { kind: 'reject', ...resolved.refusal };
  if (resolved.kind === 'unnamed') return { kind: 'accept', version, revision };
  return { kind: 'accept', version: declared, revision: resolved.revision };
}

/** The refusal of a request a server would send at a modern version: servers send none (input comes back as an InputRequiredResult). */
export function modernOutboundRefusal(version: string, method: string): string {
  return `Cannot send ${method}: servers send no requests in ${version} (use an InputRequiredResult)`;
}

/**
 * Server, Operating at a modern version: every request stands alone ({@link modernRequestRule});
 * a request naming another served version moves Operating to its revision. Undefined when the
 * connection is not modern.
 */
export function modernInbound(state: StateOf<'operating'>, event: EventOf<'inboundRequest'>): ConnectionStep | undefined {
  if (!servesModern(state.config, state.version)) return undefined;
  const verdict = modernRequestRule(state.config.modernVersions ?? NO_VERSIONS, state.version, state.revision, event.method, event.declaredVersion);
  if (verdict.kind === 'reject') return step(state, rejectInbound(verdict.message, verdict.code, verdict.data));
  if (verdict.version === state.version) return accepted(state);
  return step({ ...state, version: verdict.version, revision: verdict.revision }, accept);
}

/** Server, Operating at a modern version: servers never send requests (input comes back as an InputRequiredResult). */
export function modernOutbound(state: StateOf<'operating'>, event: EventOf<'outboundRequest'>): ConnectionStep | undefined {
  if (!servesModern(state.config, state.version)) return undefined;
  return step(state, refuse(modernOutboundRefusal(state.version, event.method)));
}
