/**
 * Method policy: whether a spec method may cross this connection — does it exist in the
 * negotiated revision, may it go in this direction, was the capability it needs declared,
 * and (for a request the server sends) is there a channel to send it on. One pure decision
 * for both directions: the outbound path turns a verdict into a typed local error, the
 * inbound path into `-32601 Method not found`.
 *
 * The rules, per the specification's "Lifecycle: capability negotiation" (2025-11-25) and the
 * revision tables in `revisions/`:
 * - a method the revision's tables lack does not exist in it (`ping` exists only where the
 *   revision has it; `initialize` is always the handshake's own);
 * - a request goes the way its table row says (`clientToServer`, `serverToClient`, `both`);
 * - a request needs the receiver's capability, a notification the sender's (`capabilities/table.ts`);
 * - a server sends requests only where it has a return channel: the revision allows server
 *   requests (2026-07-28 asks through Multi Round-Trip results instead) and the transport can
 *   carry them (not stateless HTTP).
 */
import { capabilityFor, hasCapability } from '../capabilities/table.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import type { Role } from '../machines/connection-types.js';
import type { RequestSpec, NotificationSpec, Revision } from '../revisions/types.js';

/** What the policy reads about one connection. */
export interface MethodPolicyContext {
  /** The revision in force. */
  revision(): Revision;
  /** This side's role. */
  readonly role: Role;
  /** False relaxes the capability checks (`SessionOptions.strictCapabilities`). */
  readonly strictCapabilities: boolean;
  /** What this side declared. */
  ownCapabilities(): JsonObject | undefined;
  /** What the peer declared, once known. */
  peerCapabilities(): JsonObject | undefined;
}

/** Which way a message goes, seen from this side. */
export type Way = 'send' | 'receive';

/** The policy's answer for one method. */
export type MethodVerdict =
  | { readonly kind: 'allowed' }
  /** The negotiated revision has no such method. */
  | { readonly kind: 'absent' }
  /** The method exists but not from this side's role (a client cannot send `sampling/createMessage`). */
  | { readonly kind: 'wrongDirection' }
  /** A server request with no channel to carry it. */
  | { readonly kind: 'noReturnChannel' }
  /** The capability at `path` was not declared by `holder` (this side, or the peer). */
  | { readonly kind: 'undeclared'; readonly holder: 'local' | 'peer'; readonly path: readonly string[] };

const ALLOWED: MethodVerdict = Object.freeze({ kind: 'allowed' });
const ABSENT: MethodVerdict = Object.freeze({ kind: 'absent' });
const WRONG_DIRECTION: MethodVerdict = Object.freeze({ kind: 'wrongDirection' });
const NO_RETURN_CHANNEL: MethodVerdict = Object.freeze({ kind: 'noReturnChannel' });

/** The revision's row for request `method`, own properties only (a method named `constructor` has none). */
export function requestSpec(revision: Revision, method: string): RequestSpec | undefined {
  return Object.hasOwn(revision.requests, method) ? revision.requests[method] : undefined;
}

/** The revision's row for notification `method`, own properties only. */
export function notificationSpec(revision: Revision, method: string): NotificationSpec | undefined {
  return Object.hasOwn(revision.notifications, method) ? revision.notifications[method] : undefined;
}

/**
 * Whether a server can send requests of its own on this connection: its revision has server
 * requests and its transport carries them (`Transport.canSendRequests`). A client always can.
 */
export function hasReturnChannel(role: Role, revision: Revision, transport: { readonly canSendRequests?: boolean } | undefined): boolean {
  return role === 'client' || (revision.features.serverRequests && transport?.canSendRequests !== false);
}

/**
 * May request `method` go `way` on this connection? `returnChannel`: {@link hasReturnChannel}
 * of this connection (read only when a server sends). `skipCapabilityCheck`: the caller's
 * per-request opt-out.
 */
export function requestVerdict(context: MethodPolicyContext, method: string, way: Way, returnChannel: boolean, skipCapabilityCheck = false): MethodVerdict {
  const { role } = context;
  const revision = context.revision();
  if (method === 'initialize' || (method === 'ping' && revision.features.ping)) return ALLOWED;
  const spec = requestSpec(revision, method);
  if (spec === undefined) return ABSENT;
  const sender = way === 'send' ? role : peerOf(role);
  if (spec.direction !== 'both' && spec.direction !== (sender === 'client' ? 'clientToServer' : 'serverToClient')) return WRONG_DIRECTION;
  if (way === 'send' && role === 'server' && !returnChannel) return NO_RETURN_CHANNEL;
  if (skipCapabilityCheck || !context.strictCapabilities) return ALLOWED;
  // A request needs the receiver's capability: the peer's when sending, ours when receiving.
  const receiver = way === 'send' ? peerOf(role) : role;
  const requirement = capabilityFor(method, revision.version, receiver);
  if (requirement === undefined || requirement.holder !== receiver) return ALLOWED;
  return declared(context, requirement.path, way === 'send' ? 'peer' : 'local');
}

/**
 * May notification `method` be sent by this side? It must exist in the revision (or be an
 * experimental one) and, where it needs one, this side must have declared the capability.
 * `notifications/cancelled` and `notifications/initialized` are the lifecycle's own.
 */
export function notificationVerdict(context: MethodPolicyContext, method: string): MethodVerdict {
  if (method === 'notifications/cancelled' || method === 'notifications/initialized') return ALLOWED;
  const { role } = context;
  const revision = context.revision();
  if (notificationSpec(revision, method) === undefined && !method.startsWith('notifications/experimental')) return ABSENT;
  if (!context.strictCapabilities) return ALLOWED;
  const requirement = capabilityFor(method, revision.version, peerOf(role));
  if (requirement === undefined || requirement.holder !== role) return ALLOWED;
  return declared(context, requirement.path, 'local');
}

function declared(context: MethodPolicyContext, path: readonly string[], holder: 'local' | 'peer'): MethodVerdict {
  const capabilities = holder === 'local' ? context.ownCapabilities() : context.peerCapabilities();
  return hasCapability(capabilities, path) ? ALLOWED : { kind: 'undeclared', holder, path };
}

function peerOf(role: Role): Role {
  return role === 'client' ? 'server' : 'client';
}
