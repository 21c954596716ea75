/**
 * The skills a server publishes and the entries it answers for them. Each skill is a source
 * that yields its files (relative path → bytes) when asked; every `skills/list`, `skills/get`,
 * `resources/read` and `resources/directory/read` asks again, so a digest always describes the
 * bytes the server serves now (a file changed on disk never goes out under a stale digest).
 * A snapshot checks what the Agent Skills format and the extension require: a `SKILL.md` with
 * frontmatter `name` and `description`, the name equal to the path's last segment and valid,
 * confined file paths, and the per-skill limits.
 */
import { ErrorCode, JsonRpcError, type SkillEntry, type SkillFrontmatter, type SkillResource } from '@statemcp/protocol';
import { DIRECTORY_MIME_TYPE, SKILL_FILE_NAME, SKILL_LIMITS } from '@statemcp/protocol/internal';
import { frontmatterNameProblem, parseSkillMarkdown, skillDigest } from '@statemcp/protocol/skills';
import { filePathProblem, mimeTypeOf, skillPathProblem, skillUri, utf8Text } from './skill-files.js';

/** Where a skill's files come from: read afresh on every request. */
export interface SkillSource {
  /** The skill path: `git-workflow`, or `acme/billing/refunds` (the last segment is the skill's name). */
  readonly path: string;
  /** The skill's files by path relative to its folder (`SKILL.md`, `references/guide.md`, …). */
  readonly read: () => Promise<ReadonlyMap<string, Uint8Array>>;
}

/** The per-skill limits a catalog enforces (default: the extension's, 512 files and 16 MiB). */
export interface SkillLimits {
  readonly maxResources?: number;
  readonly maxTotalBytes?: number;
}

/** One file of a snapshot. */
export interface SkillFile {
  readonly path: string;
  readonly uri: string;
  readonly mimeType: string;
  readonly bytes: Uint8Array;
}

/** A skill as read just now: its entry and the very bytes the entry's digests describe. */
export interface SkillSnapshot {
  readonly path: string;
  readonly entry: SkillEntry;
  readonly files: ReadonlyMap<string, SkillFile>;
}

/** A skill that breaks the format or the limits; the message says which rule and where. */
export class SkillDefinitionError extends Error {
  override readonly name = 'SkillDefinitionError';
}

/** Reads a source and builds its entry; throws {@link SkillDefinitionError} for an invalid skill. */
export async function snapshotSkill(source: SkillSource, limits: SkillLimits = {}): Promise<SkillSnapshot> {
  const where = `skill ${JSON.stringify(source.path)}`;
  const pathProblem = skillPathProblem(source.path);
  if (pathProblem !== undefined) throw new SkillDefinitionError(`${where}: ${pathProblem}`);
  const raw = await source.read();
  const skillMd = raw.get(SKILL_FILE_NAME);
  if (skillMd === undefined) throw new SkillDefinitionError(`${where}: no ${SKILL_FILE_NAME} at the skill's root`);
  const text = utf8Text(skillMd);
  if (text === undefined) throw new SkillDefinitionError(`${where}: ${SKILL_FILE_NAME} is not UTF-8 text`);
  let frontmatter: SkillFrontmatter;
  try {
    frontmatter = parseSkillMarkdown(text).frontmatter;
  } catch (error) {
    throw new SkillDefinitionError(`${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const name = source.path.slice(source.path.lastIndexOf('/') + 1);
  const nameProblem = frontmatterNameProblem(frontmatter, name);
  if (nameProblem !== undefined) throw new SkillDefinitionError(`${where}: ${nameProblem}`);
  const maxResources = limits.maxResources ?? SKILL_LIMITS.maxResources;
  const maxTotalBytes = limits.maxTotalBytes ?? SKILL_LIMITS.maxTotalBytes;
  if (raw.size > maxResources) throw new SkillDefinitionError(`${where}: ${raw.size} files, over the limit of ${maxResources} per skill`);
  const paths = [SKILL_FILE_NAME, ...[...raw.keys()].filter((path) => path !== SKILL_FILE_NAME).sort()];
  const files = new Map<string, SkillFile>();
  const resources: SkillResource[] = [];
  let total = 0;
  for (const path of paths) {
    const problem = filePathProblem(path);
    if (problem !== undefined) throw new SkillDefinitionError(`${where}: ${problem}`);
    const bytes = raw.get(path) as Uint8Array;
    total += bytes.byteLength;
    const uri = skillUri(source.path, path);
    files.set(uri, { path, uri, mimeType: mimeTypeOf(path, bytes), bytes });
    resources.push({ uri, digest: await skillDigest(bytes), size: bytes.byteLength });
  }
  if (total > maxTotalBytes) throw new SkillDefinitionError(`${where}: ${total} bytes in all, over the limit of ${maxTotalBytes} per skill`);
  return { path: source.path, entry: { uri: skillUri(source.path, SKILL_FILE_NAME), frontmatter, resources }, files };
}

/** A child of a directory resource. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

/** The skills of one server, read afresh for every request. */
export class SkillCatalog {
  readonly #sources: readonly SkillSource[];
  readonly #limits: SkillLimits;

  constructor(sources: readonly SkillSource[], limits: SkillLimits = {}) {
    const seen = new Set<string>();
    for (const source of sources) {
      if (seen.has(source.path)) throw new SkillDefinitionError(`skill ${JSON.stringify(source.path)} is registered twice`);
      seen.add(source.path);
    }
    this.#sources = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    this.#limits = limits;
  }

  /** The skill paths, sorted. */
  get paths(): string[] {
    return this.#sources.map((source) => source.path);
  }

  /** Checks every skill now (at registration); throws the first {@link SkillDefinitionError}. */
  async validate(): Promise<void> {
    for (const source of this.#sources) await snapshotSkill(source, this.#limits);
  }

  /** Every skill as it is now; a skill that became invalid since registration is left out. */
  async snapshots(): Promise<SkillSnapshot[]> {
    const settled = await Promise.allSettled(this.#sources.map((source) => snapshotSkill(source, this.#limits)));
    return settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
  }

  /** The skill whose `SKILL.md` is at `uri`, read now; -32602 when no skill is served there. */
  async skill(uri: string): Promise<SkillSnapshot> {
    const source = this.#sources.find((candidate) => skillUri(candidate.path, SKILL_FILE_NAME) === uri);
    if (source === undefined) throw new JsonRpcError(ErrorCode.InvalidParams, `No skill is served at ${uri}`, { uri });
    try {
      return await snapshotSkill(source, this.#limits);
    } catch (error) {
      throw new JsonRpcError(ErrorCode.InternalError, `Skill ${uri} cannot be served now: ${error instanceof Error ? error.message : String(error)}`, { uri });
    }
  }

  /** The file at `uri`, read now (from the innermost skill holding it); undefined when none is served there. */
  async file(uri: string): Promise<SkillFile | undefined> {
    const holders = this.#sources.filter((source) => uri.startsWith(`${skillUri(source.path)}/`)).sort((a, b) => b.path.length - a.path.length);
    for (const source of holders) {
      const snapshot = await snapshotSkill(source, this.#limits).catch(() => undefined);
      const file = snapshot?.files.get(uri);
      if (file !== undefined) return file;
    }
    return undefined;
  }

  /**
   * The direct children of the directory resource at `uri` (a skill's root, one of its
   * subfolders, or a prefix folder such as `skill://acme`), sorted by URI; -32602 when `uri`
   * is a file or nothing.
   */
  async directory(uri: string): Promise<DirectoryChild[]> {
    const snapshots = await this.snapshots();
    const children = new Map<string, DirectoryChild>();
    let isFile = false;
    for (const snapshot of snapshots) {
      for (const file of snapshot.files.values()) {
        if (file.uri === uri) isFile = true;
        if (!file.uri.startsWith(`${uri}/`)) continue;
        const rest = file.uri.slice(uri.length + 1);
        const slash = rest.indexOf('/');
        const child = slash === -1 ? file.uri : `${uri}/${rest.slice(0, slash)}`;
        const name = decodeURIComponent(slash === -1 ? rest : rest.slice(0, slash));
        if (!children.has(child)) children.set(child, slash === -1 ? { uri: child, name, mimeType: file.mimeType, size: file.bytes.byteLength } : { uri: child, name, mimeType: DIRECTORY_MIME_TYPE });
      }
    }
    if (isFile) throw new JsonRpcError(ErrorCode.InvalidParams, `${uri} is not a directory resource`, { uri });
    if (children.size === 0) throw new JsonRpcError(ErrorCode.InvalidParams, `No directory is served at ${uri}`, { uri });
    return [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }
}
