/**
 * The registry of protocol revisions, keyed by version string. Adding a revision (for
 * example 2026-07-28) is one import and one entry in {@link ALL}; no revision module
 * changes.
 */
import { UnsupportedProtocolVersionError } from '../errors/errors.js';
import type { Revision } from './types.js';
import { revision_2024_11_05 } from './v2024-11-05.js';
import { revision_2025_03_26 } from './v2025-03-26.js';
import { revision_2025_06_18 } from './v2025-06-18.js';
import { revision_2025_11_25 } from './v2025-11-25.js';

const ALL: readonly Revision[] = [revision_2024_11_05, revision_2025_03_26, revision_2025_06_18, revision_2025_11_25];

/** Every known revision by version, oldest first. */
export const REVISIONS: ReadonlyMap<string, Revision> = new Map(ALL.map((revision) => [revision.version, revision]));

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

/** The versions with a registered revision, oldest first (a fresh array). */
export function supportedVersions(): string[] {
  return [...REVISIONS.keys()].sort();
}
