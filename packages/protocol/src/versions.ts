/**
 * Protocol versions and the two negotiation rules of the legacy handshake (digest §1.1):
 * the server answers the client's version when it supports it, otherwise its own latest;
 * the client accepts any answer it supports and otherwise disconnects with a typed
 * {@link UnsupportedProtocolVersionError}.
 */
import { UnsupportedProtocolVersionError } from './errors/errors.js';
import { getRevision } from './revisions/registry.js';

/** Every stateful (handshake) revision, oldest first. */
export const LEGACY_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
/** A stateful revision (with the `initialize` handshake). */
export type LegacyProtocolVersion = (typeof LEGACY_PROTOCOL_VERSIONS)[number];

/** The newest revision with an `initialize` handshake. */
export const LATEST_LEGACY_PROTOCOL_VERSION: LegacyProtocolVersion = '2025-11-25';

/** The version assumed for Streamable HTTP requests without `MCP-Protocol-Version` (digest §5.2). */
export const DEFAULT_HTTP_ASSUMED_VERSION: LegacyProtocolVersion = '2025-03-26';

/** Every stateless revision (no handshake; per-request `_meta`, digest §6), oldest first. */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'] as const;
/** A stateless revision (2026-07-28 on: no handshake, per-request `_meta`). */
export type ModernProtocolVersion = (typeof MODERN_PROTOCOL_VERSIONS)[number];

/** The newest stateless revision. */
export const LATEST_MODERN_PROTOCOL_VERSION: ModernProtocolVersion = '2026-07-28';

/** Every revision this SDK implements, both eras, oldest first: a server's default `supportedVersions`. */
export const DUAL_ERA_PROTOCOL_VERSIONS: readonly string[] = Object.freeze([...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]);

/** Which lifecycle a revision uses: `legacy` (handshake, sessions) or `modern` (stateless). */
export type ProtocolEra = 'legacy' | 'modern';

/** True when `version` is one of the legacy revisions this SDK implements. */
export function isLegacyVersion(version: string): version is LegacyProtocolVersion {
  return (LEGACY_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/** True when `version` is one of the stateless revisions this SDK implements. */
export function isModernVersion(version: string): version is ModernProtocolVersion {
  return (MODERN_PROTOCOL_VERSIONS as readonly string[]).includes(version);
}

/**
 * The era of `version`: its registered revision's (legacy revisions have a handshake;
 * 2026-07-28 and later do not). A version no revision describes is of the legacy era: it can
 * only be proposed in `initialize`, where the server answers with a version of its own.
 */
export function eraOf(version: string): ProtocolEra {
  return getRevision(version)?.era ?? 'legacy';
}

/** Newest first, as a copy. */
function newestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}

/**
 * The newest of `versions` (undefined for none): one pass, no copy and no sort — every
 * handshake asks, and the sorted copy showed in the handshake profile.
 */
function newest(versions: readonly string[]): string | undefined {
  let latest: string | undefined;
  for (const version of versions) if (latest === undefined || version > latest) latest = version;
  return latest;
}

/**
 * Server rule (rules 19–20): answer with the requested version when supported, otherwise
 * with the server's latest supported version. Never an error: the client decides.
 */
export function negotiateServerVersion(requested: unknown, supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS): string {
  if (typeof requested === 'string' && supported.includes(requested)) return requested;
  const latest = newest(supported);
  if (latest === undefined) throw new RangeError('No supported protocol versions configured');
  return latest;
}

/**
 * Client rule (rule 21): accept the server's answer if this client supports it; otherwise
 * throw {@link UnsupportedProtocolVersionError} (the client then disconnects).
 */
export function acceptServerVersion(answered: string, supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS): string {
  if (supported.includes(answered)) return answered;
  throw new UnsupportedProtocolVersionError(answered, newestFirst(supported));
}

/** The version a client proposes: its latest supported (rule 18). */
export function proposeVersion(supported: readonly string[] = LEGACY_PROTOCOL_VERSIONS): string {
  const latest = newest(supported);
  if (latest === undefined) throw new RangeError('No supported protocol versions configured');
  return latest;
}
