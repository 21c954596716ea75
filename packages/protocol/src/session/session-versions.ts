/**
 * The version lists a session derives from its supported versions, and the connection
 * machine's frozen config: made once per distinct list (a server passes the same list to every
 * connection, so an idle session holds no copies of its own).
 */
import type { ConnectionConfig, Role } from '../machines/connection-types.js';
import { getRevision } from '../revisions/registry.js';
import { servedStatelessVersions } from '../revisions/resolve-version.js';
import { DUAL_ERA_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSIONS, isLegacyVersion, proposeVersion } from '../versions.js';

/** The version lists a session derives from its supported versions; shared by every session with the same list. */
export interface VersionLists {
  /** The stateless-era versions, newest first (`servedStatelessVersions`). */
  readonly modern: readonly string[];
  readonly legacy: readonly string[];
  /** The revisions that have a handshake: the ones `initialize` negotiates among. */
  readonly handshake: readonly string[];
  /** The version a new session's revision starts at (the newest legacy one, or the newest of all). */
  readonly initial: string;
  /** The machine's frozen config per role and `strictInitialized`, made once (`initialConnectionState` shares a frozen one). */
  readonly configs: Map<string, ConnectionConfig>;
}

const NO_VERSIONS: readonly string[] = [];
/** Keyed by the supported list itself. */
const versionListsCache = new WeakMap<readonly string[], VersionLists>();

/** A session's default supported versions: a server speaks both eras, a client the handshake era. */
export function defaultSupportedVersions(role: Role): readonly string[] {
  // A server is dual-era by default: legacy clients get the handshake, modern requests are served statelessly.
  return role === 'server' ? DUAL_ERA_PROTOCOL_VERSIONS : LEGACY_PROTOCOL_VERSIONS;
}

export function versionListsOf(supported: readonly string[]): VersionLists {
  let lists = versionListsCache.get(supported);
  if (lists === undefined) {
    lists = {
      modern: servedStatelessVersions(supported),
      legacy: supported.filter(isLegacyVersion),
      handshake: supported.filter((version) => getRevision(version)?.features.handshake ?? true),
      initial: proposeVersion(supported.some(isLegacyVersion) ? supported.filter(isLegacyVersion) : supported),
      configs: new Map(),
    };
    versionListsCache.set(supported, lists);
  }
  return lists;
}

export function connectionConfigOf(versions: VersionLists, role: Role, strictInitialized: boolean): ConnectionConfig {
  const key = `${role}:${strictInitialized}`;
  let config = versions.configs.get(key);
  if (config === undefined) {
    config = Object.freeze({ role, strictInitialized, modernVersions: role === 'server' ? versions.modern : NO_VERSIONS });
    versions.configs.set(key, config);
  }
  return config;
}
