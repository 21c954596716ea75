/**
 * The skills extension (`io.modelcontextprotocol/skills`, SEP-2640): the extension id, its
 * methods, limits and the wire shapes of a skill entry. A server publishes Agent Skills (a
 * folder with a `SKILL.md` whose YAML frontmatter names and describes it, plus any files) as
 * resources, usually `skill://<skill-path>/<file-path>`, answers `skills/list` and `skills/get`
 * with one entry per skill (the frontmatter verbatim and a manifest of every file with its
 * `sha256:` digest and size) and, when it declares `directoryRead`, `resources/directory/read`.
 * The frontmatter parser and digest helpers are in `@statemcp/protocol/skills`; the server
 * side is `@statemcp/server/skills`, the host side `@statemcp/client/skills`.
 */

/** The extension id, the key under `capabilities.extensions`. */
export const SKILLS_EXTENSION_ID = 'io.modelcontextprotocol/skills';

/** The methods the extension defines: listing, getting one entry, and reading a directory. */
export const SKILLS_METHODS = Object.freeze({
  list: 'skills/list',
  get: 'skills/get',
  directoryRead: 'resources/directory/read',
} as const);

/** The file every skill has at its root. */
export const SKILL_FILE_NAME = 'SKILL.md';

/** The MIME type of a `SKILL.md` resource. */
export const SKILL_MARKDOWN_MIME_TYPE = 'text/markdown';

/** The MIME type of a directory resource (`resources/directory/read`). */
export const DIRECTORY_MIME_TYPE = 'inode/directory';

/** The per-skill limits every host must accept and servers should not exceed. */
export const SKILL_LIMITS = Object.freeze({
  /** Entries of a skill's `resources`, `SKILL.md` included. */
  maxResources: 512,
  /** The sum of `size` over a skill's `resources` (16 MiB). */
  maxTotalBytes: 16 * 1024 * 1024,
});

/** The extension's settings in the server's capabilities (`{}`: no optional feature). */
export interface SkillsExtensionSettings {
  /** The server answers `resources/directory/read`. */
  directoryRead?: boolean;
}

/** A skill's `SKILL.md` frontmatter as JSON: `name` and `description`, plus whatever else the author wrote. */
export interface SkillFrontmatter {
  name: string;
  description: string;
  [key: string]: unknown;
}

/** One file of a skill: its resource URI, `sha256:<64 hex>` digest and size in bytes. */
export interface SkillResource {
  uri: string;
  digest: string;
  size: number;
}

/** A skill entry, as `skills/list` and `skills/get` answer it. */
export interface SkillEntry {
  /** The URI of the skill's `SKILL.md`. */
  uri: string;
  frontmatter: SkillFrontmatter;
  /** Every file of the skill (complete), or `"dynamic"` when no stable digests exist. */
  resources: SkillResource[] | 'dynamic';
}

/** The result of `skills/list` (one page). */
export interface ListSkillsResult {
  skills: SkillEntry[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  [key: string]: unknown;
}

/** The result of `skills/get`. */
export interface GetSkillResult {
  skill: SkillEntry;
  ttlMs?: number;
  cacheScope?: 'public' | 'private';
  [key: string]: unknown;
}

/** True for a `sha256:` digest in the extension's format (64 lowercase hex digits). */
export function isSkillDigest(value: unknown): value is string {
  return typeof value === 'string' && /^sha256:[0-9a-f]{64}$/.test(value);
}
