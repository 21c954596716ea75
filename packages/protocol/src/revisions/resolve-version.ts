/**
 * The one rule for the protocol version of a request of the stateless era (MCP 2026-07-28,
 * Basic §Versioning and Transports §Protocol Version Header): a request names its version in
 * its own `_meta` (`io.modelcontextprotocol/protocolVersion`) and, over HTTP, in the
 * `MCP-Protocol-Version` header. A version this side serves is in force for that request
 * alone; any other is refused with -32022 "Unsupported protocol version", naming the versions
 * served, newest first. The HTTP server's era routing, the connection machine's modern step
 * and `server/discover` all read this module, so the three answer alike. Pure.
 */
import { ErrorCode } from '../jsonrpc/messages.js';
import { LATEST_LEGACY_PROTOCOL_VERSION, eraOf } from '../versions.js';
import { getRevision } from './registry.js';
import type { Revision } from './types.js';

/** Why a request's version is refused: the -32022 error, as its wire fields. */
export interface UnsupportedVersionRefusal {
  readonly code: typeof ErrorCode.UnsupportedProtocolVersion;
  readonly message: string;
  readonly data: { readonly supported: readonly string[]; readonly requested: string };
}

/**
 * What a request's version comes to: `unnamed` when it names none (legacy traffic, or a
 * stateless request that fails its params validation for the missing `_meta`), `served` with
 * the revision in force for it, or `unsupported` with the refusal to answer.
 */
export type VersionResolution =
  | { readonly kind: 'unnamed' }
  | { readonly kind: 'served'; readonly revision: Revision }
  | { readonly kind: 'unsupported'; readonly refusal: UnsupportedVersionRefusal };

const UNNAMED: VersionResolution = Object.freeze({ kind: 'unnamed' });
const servedCache = new WeakMap<readonly string[], readonly string[]>();
const resolvedCache = new WeakMap<Revision, VersionResolution>();

/**
 * The stateless-era versions among `supported` (those whose registered revision is of the
 * modern era), newest first: what a -32022 names and what `server/discover` lists. One frozen
 * list per input list.
 */
export function servedStatelessVersions(supported: readonly string[]): readonly string[] {
  let served = servedCache.get(supported);
  if (served === undefined) {
    served = Object.freeze(supported.filter((version) => eraOf(version) === 'modern').sort((a, b) => (a < b ? 1 : a > b ? -1 : 0)));
    servedCache.set(supported, served);
  }
  return served;
}

/**
 * The version in force for one request. `supported`: this side's versions (both eras; only
 * the stateless ones serve a request by itself). `metaVersion`: the version the request's
 * `_meta` names. `header`: the HTTP `MCP-Protocol-Version`, read only when the body names
 * none and only when it names a stateless-era version (a legacy header is legacy traffic;
 * that the two agree is the HTTP server's -32020 check).
 *
 * @example
 * ```ts
 * resolveRequestVersion(['2025-11-25', '2026-07-28'], undefined, '2026-07-28'); // { kind: 'served', revision }
 * resolveRequestVersion(['2025-11-25', '2026-07-28'], undefined, '1900-01-01').kind; // 'unsupported'
 * ```
 */
export function resolveRequestVersion(supported: readonly string[], header: string | undefined, metaVersion: string | undefined): VersionResolution {
  const named = metaVersion ?? (header !== undefined && eraOf(header) === 'modern' ? header : undefined);
  if (named === undefined) return UNNAMED;
  const served = servedStatelessVersions(supported);
  const revision = served.includes(named) ? getRevision(named) : undefined;
  if (revision === undefined) return { kind: 'unsupported', refusal: unsupportedVersion(served, named) };
  let resolved = resolvedCache.get(revision);
  if (resolved === undefined) {
    resolved = Object.freeze({ kind: 'served', revision });
    resolvedCache.set(revision, resolved);
  }
  return resolved;
}

/** The -32022 refusal of `requested`, naming `served` (newest first). */
export function unsupportedVersion(served: readonly string[], requested: string): UnsupportedVersionRefusal {
  return { code: ErrorCode.UnsupportedProtocolVersion, message: `Unsupported protocol version: ${requested}`, data: { supported: [...served], requested } };
}

/**
 * The revision a version in force is served at: its registered revision, or the newest legacy
 * one for a configured version that no revision describes (its messages are then checked as
 * the newest handshake revision's).
 */
export function revisionFor(version: string): Revision {
  const revision = getRevision(version) ?? getRevision(LATEST_LEGACY_PROTOCOL_VERSION);
  if (revision === undefined) throw new Error(`No revision registered for ${version}`);
  return revision;
}
