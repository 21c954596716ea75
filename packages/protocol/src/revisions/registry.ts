/**
 * The registry of protocol revisions, keyed by version string. Adding a revision is one
 * import and one entry in {@link ALL}; no revision module changes. Legacy negotiation does
 * not read this registry: it proposes from `LEGACY_PROTOCOL_VERSIONS`, so registering the
 * stateless 2026-07-28 revision never puts it into an `initialize`.
 */
import { UnsupportedProtocolVersionError } from '../errors/errors.js';
import type { Revision, RevisionFeatures } from './types.js';
import { revision_2024_11_05 } from './v2024-11-05.js';
import { revision_2025_03_26 } from './v2025-03-26.js';
import { revision_2025_06_18 } from './v2025-06-18.js';
import { revision_2025_11_25 } from './v2025-11-25.js';
import { revision_2026_07_28 } from './v2026-07-28.js';

const ALL: readonly Revision[] = [revision_2024_11_05, revision_2025_03_26, revision_2025_06_18, revision_2025_11_25, revision_2026_07_28];

const known = new Map(ALL.map((revision) => [revision.version, revision]));

/** Every known revision by version (the built-in ones oldest first, then any registered later). */
export const REVISIONS: ReadonlyMap<string, Revision> = known;

/**
 * Adds a revision this SDK does not ship (a draft, or a test's second stateless revision) and
 * returns the function that removes it again. Its `era` decides which lifecycle it uses
 * everywhere (`eraOf`); a version already known is refused with a `RangeError`.
 *
 * @example
 * ```ts
 * const draft = { ...getRevision('2026-07-28')!, version: '2099-01-01' };
 * const unregister = registerRevision(draft);
 * eraOf('2099-01-01'); // 'modern'
 * unregister();
 * ```
 */
export function registerRevision(revision: Revision): () => void {
  if (known.has(revision.version)) throw new RangeError(`Protocol revision ${revision.version} is already registered`);
  known.set(revision.version, revision);
  return () => {
    if (known.get(revision.version) === revision) known.delete(revision.version);
  };
}

/** The revision of `version`, or `undefined` when this SDK does not know it. */
export function getRevision(version: string): Revision | undefined {
  return REVISIONS.get(version);
}

/** The revision of `version`; throws {@link UnsupportedProtocolVersionError} when unknown. */
export function requireRevision(version: string): Revision {
  const revision = REVISIONS.get(version);
  if (revision === undefined) throw new UnsupportedProtocolVersionError(version, supportedVersions());
  return revision;
}

/** The versions with a registered revision of either era, oldest first (a fresh array). */
export function supportedVersions(): string[] {
  return [...REVISIONS.keys()].sort();
}

/**
 * Whether `version` has `feature` (see `RevisionFeatures`). An unknown version has no
 * feature: a rule that depends on a revision never switches on for one this SDK cannot speak.
 *
 * @example
 * ```ts
 * hasFeature('2025-11-25', 'tasks'); // true
 * hasFeature('2025-06-18', 'batching'); // false
 * ```
 */
export function hasFeature(version: string | undefined, feature: BooleanFeature): boolean {
  if (version === undefined) return false;
  return REVISIONS.get(version)?.features[feature] === true;
}

/** The names of the yes/no rules of `RevisionFeatures`. */
export type BooleanFeature = { [K in keyof RevisionFeatures]: RevisionFeatures[K] extends boolean ? K : never }[keyof RevisionFeatures];
