/**
 * Loading a skill the way the skills extension requires of a host: lazily (nothing is read on
 * connect or on listing; `SKILL.md` when the skill is loaded, a supporting file when it is
 * read), and every file verified against the held entry before anything is handed out —
 * first its size, then its `sha256:` digest, and for `SKILL.md` its frontmatter, field by
 * field, against the entry's. A file the entry does not list is not read at all. Any
 * mismatch is a `SkillVerificationError`; the caller refreshes the entry
 * (`client.getSkill(uri)`) and loads again.
 *
 *     loadSkill(client, entry)
 *       ├─ entry well-formed? (uri …/SKILL.md, name = last segment, manifest complete, limits) ── no → invalid-entry
 *       ├─ resources/read SKILL.md → size → digest → frontmatter ── mismatch → size | digest | frontmatter
 *       └─ LoadedSkill.readFile(path) → listed? → resources/read → size → digest ── unlisted | size | digest
 */
import { SkillVerificationError, type SkillEntry, type SkillFrontmatter, type SkillResource } from '@statemcp/protocol';
import { SKILL_FILE_NAME, SKILL_LIMITS, isSkillDigest } from '@statemcp/protocol/internal';
import { frontmatterDifferences, parseSkillMarkdown, skillDigest } from '@statemcp/protocol/skills';
import type { Client } from '../client.js';
import { requireSkills } from '../skills-calls.js';

/** A verified file of a loaded skill. */
export interface VerifiedSkillFile {
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** The raw bytes (what the digest covers). */
  readonly bytes: Uint8Array;
  /** The bytes as UTF-8 text when the server sent text. */
  readonly text: string | undefined;
}

/** A skill loaded under its entry: the verified `SKILL.md` and lazy, verified access to its other files. */
export interface LoadedSkill {
  /** The entry the skill was loaded under (the held entry). */
  readonly entry: SkillEntry;
  readonly frontmatter: SkillFrontmatter;
  /** The whole `SKILL.md`, verified. */
  readonly text: string;
  /** The markdown after the frontmatter. */
  readonly body: string;
  /** The skill's files as the entry lists them. */
  readonly files: readonly SkillResource[];
  /**
   * Reads one of the skill's files, by URI or by path relative to the skill's root
   * (`references/GUIDE.md`), verified against the held entry; read once, then served from memory.
   */
  readFile(pathOrUri: string): Promise<VerifiedSkillFile>;
}

function fail(entry: { uri: string }, uri: string, failure: SkillVerificationError['failure'], message: string): SkillVerificationError {
  return new SkillVerificationError(entry.uri, uri, failure, `${message}; the skill is not loaded`);
}

/** The skill's root (its `SKILL.md` URI without `/SKILL.md`); throws for an entry a host must not load. */
function checkEntry(entry: SkillEntry): string {
  const bad = (why: string) => fail(entry, entry.uri, 'invalid-entry', `Skill entry ${String(entry.uri)} is invalid: ${why}`);
  if (typeof entry.uri !== 'string' || !entry.uri.endsWith(`/${SKILL_FILE_NAME}`)) throw bad(`its uri does not end in /${SKILL_FILE_NAME}`);
  const root = entry.uri.slice(0, -SKILL_FILE_NAME.length - 1);
  const frontmatter = entry.frontmatter as Partial<SkillFrontmatter> | undefined;
  if (typeof frontmatter !== 'object' || frontmatter === null || typeof frontmatter.name !== 'string' || typeof frontmatter.description !== 'string') throw bad('its frontmatter lacks name or description');
  if (root.slice(root.lastIndexOf('/') + 1) !== frontmatter.name) throw bad(`the last segment of its uri is not its name ${JSON.stringify(frontmatter.name)}`);
  if (!Array.isArray(entry.resources)) throw bad(entry.resources === 'dynamic' ? 'its resources are "dynamic" (no digests to verify against)' : 'it has no resources manifest');
  const seen = new Set<string>();
  let total = 0;
  for (const file of entry.resources as unknown[]) {
    const { uri, digest, size } = (file ?? {}) as Partial<SkillResource>;
    if (typeof uri !== 'string' || !isSkillDigest(digest) || typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw bad(`a manifest item is not {uri, sha256 digest, size}`);
    if (seen.has(uri)) throw bad(`${uri} is listed twice`);
    if (uri !== entry.uri && !uri.startsWith(`${root}/`)) throw bad(`${uri} is outside the skill`);
    seen.add(uri);
    total += size;
  }
  if (!seen.has(entry.uri)) throw bad(`its manifest does not list ${SKILL_FILE_NAME}`);
  if (seen.size > SKILL_LIMITS.maxResources || total > SKILL_LIMITS.maxTotalBytes) throw bad(`it exceeds the per-skill limits (${seen.size} files, ${total} bytes)`);
  return root;
}

function base64Bytes(blob: string): Uint8Array {
  const binary = atob(blob);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

/** Reads `listed` and verifies size, then digest. */
async function readVerified(client: Client, entry: SkillEntry, listed: SkillResource): Promise<VerifiedSkillFile> {
  let contents;
  try {
    contents = (await client.readResource({ uri: listed.uri })).contents;
  } catch (error) {
    throw new SkillVerificationError(entry.uri, listed.uri, 'unreadable', `${listed.uri} could not be read: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const item = contents.find((candidate) => candidate.uri === listed.uri) ?? (contents.length === 1 ? contents[0] : undefined);
  const text = item !== undefined && 'text' in item && typeof item.text === 'string' ? item.text : undefined;
  const blob = item !== undefined && 'blob' in item && typeof item.blob === 'string' ? item.blob : undefined;
  if (text === undefined && blob === undefined) throw fail(entry, listed.uri, 'unreadable', `${listed.uri} came back without text or blob`);
  let bytes: Uint8Array;
  try {
    bytes = text !== undefined ? new TextEncoder().encode(text) : base64Bytes(blob as string);
  } catch {
    throw fail(entry, listed.uri, 'unreadable', `${listed.uri} came back with a blob that is not base64`);
  }
  if (bytes.byteLength !== listed.size) throw fail(entry, listed.uri, 'size', `${listed.uri} is ${bytes.byteLength} bytes where the entry says ${listed.size}`);
  const digest = await skillDigest(bytes);
  if (digest !== listed.digest) throw fail(entry, listed.uri, 'digest', `${listed.uri} hashes to ${digest} where the entry says ${listed.digest}`);
  return { uri: listed.uri, mimeType: item?.mimeType, bytes, text };
}

/** The URI of `pathOrUri` inside the skill at `root`; undefined when a relative path climbs out. */
function resolveInSkill(root: string, pathOrUri: string): string | undefined {
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(pathOrUri)) return pathOrUri;
  const segments: string[] = [];
  for (const segment of pathOrUri.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return undefined;
    } else segments.push(encodeURIComponent(decodeURIComponent(segment)));
  }
  return `${root}/${segments.join('/')}`;
}

/**
 * Loads the skill of `entry` (from `client.listSkills()` or `client.getSkill()`): reads its
 * `SKILL.md` and verifies size, digest and frontmatter; supporting files are read only when
 * asked for, through the returned `readFile`, and verified the same way. Throws a
 * `SkillVerificationError` (code `SKILL_VERIFICATION_FAILED`) on any mismatch and for an
 * entry a host must not load (a `"dynamic"` or incomplete manifest, a name that is not the
 * last segment of the URI, over the limits); unverified content is never returned.
 *
 * @example
 * ```ts
 * const { skills } = await client.listSkills();
 * const skill = await loadSkill(client, skills[0]);
 * console.log(skill.frontmatter.description, skill.body);
 * const guide = await skill.readFile('references/GUIDE.md');
 * ```
 */
export async function loadSkill(client: Client, entry: SkillEntry): Promise<LoadedSkill> {
  requireSkills(client, 'loadSkill');
  const held: SkillEntry = structuredClone(entry);
  const root = checkEntry(held);
  const manifest = held.resources as SkillResource[];
  const skillMd = await readVerified(client, held, manifest.find((file) => file.uri === held.uri) as SkillResource);
  let parsed;
  try {
    parsed = parseSkillMarkdown(skillMd.text ?? new TextDecoder().decode(skillMd.bytes));
  } catch (error) {
    throw new SkillVerificationError(held.uri, held.uri, 'frontmatter', `${held.uri} has no readable frontmatter (${error instanceof Error ? error.message : String(error)}); the skill is not loaded`, { cause: error });
  }
  const differences = frontmatterDifferences(parsed.frontmatter, held.frontmatter);
  if (differences.length > 0) throw fail(held, held.uri, 'frontmatter', `${held.uri} has frontmatter that differs from the entry's in ${differences.join(', ')}`);
  const verified = new Map<string, Promise<VerifiedSkillFile>>([[held.uri, Promise.resolve(skillMd)]]);
  return {
    entry: held,
    frontmatter: parsed.frontmatter,
    text: skillMd.text ?? new TextDecoder().decode(skillMd.bytes),
    body: parsed.body,
    files: manifest,
    readFile(pathOrUri) {
      const uri = resolveInSkill(root, pathOrUri);
      const listed = uri === undefined ? undefined : manifest.find((file) => file.uri === uri);
      if (listed === undefined) return Promise.reject(fail(held, uri ?? pathOrUri, 'unlisted', `${uri ?? pathOrUri} is not a file of the skill as its entry lists it (refresh the entry with getSkill to see new files)`));
      let pending = verified.get(listed.uri);
      if (pending === undefined) {
        pending = readVerified(client, held, listed);
        pending.catch(() => verified.delete(listed.uri));
        verified.set(listed.uri, pending);
      }
      return pending;
    },
  };
}
