/**
 * Reading a `SKILL.md`: the YAML frontmatter block between the leading `---` lines, parsed
 * with the `yaml` library (YAML 1.2 core schema, duplicate keys refused) into the JSON object
 * a skill entry carries, and a field-by-field comparison of two frontmatter objects. The
 * server builds entries with it; the host checks a fetched `SKILL.md` against its entry.
 */
import { parse } from 'yaml';
import type { SkillFrontmatter } from '../extensions/skills.js';
import { skillNameProblem } from './skill-name.js';

/** A parsed `SKILL.md`: its frontmatter and the markdown after it. */
export interface SkillMarkdown {
  readonly frontmatter: SkillFrontmatter;
  readonly body: string;
}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

/**
 * Parses a `SKILL.md`. Throws a `SyntaxError` saying what is wrong when the file does not
 * start with a `---` frontmatter block, the YAML is invalid, it is not a mapping, or `name` or
 * `description` is missing or not a non-empty string. The name's syntax is not checked here
 * (see `skillNameProblem`).
 *
 * @example
 * ```ts
 * const { frontmatter, body } = parseSkillMarkdown('---\nname: git-flow\ndescription: Branching rules\n---\n# Git flow\n');
 * // frontmatter: { name: 'git-flow', description: 'Branching rules' }
 * ```
 */
export function parseSkillMarkdown(text: string): SkillMarkdown {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const match = FRONTMATTER.exec(source);
  if (match === null) throw new SyntaxError('SKILL.md does not begin with a YAML frontmatter block between --- lines');
  let value: unknown;
  try {
    value = parse(match[1] ?? '', { schema: 'core', uniqueKeys: true, prettyErrors: false });
  } catch (error) {
    throw new SyntaxError(`SKILL.md frontmatter is not valid YAML: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new SyntaxError('SKILL.md frontmatter is not a YAML mapping');
  const record = value as Record<string, unknown>;
  for (const field of ['name', 'description']) {
    const v = record[field];
    if (typeof v !== 'string' || v.length === 0) throw new SyntaxError(`SKILL.md frontmatter has no non-empty string "${field}"`);
  }
  return { frontmatter: JSON.parse(JSON.stringify(record)) as SkillFrontmatter, body: source.slice(match[0].length) };
}

/** Why a parsed frontmatter cannot publish a skill at a path ending in `expectedName`; undefined when it can. */
export function frontmatterNameProblem(frontmatter: SkillFrontmatter, expectedName: string): string | undefined {
  const problem = skillNameProblem(frontmatter.name);
  if (problem !== undefined) return problem;
  if (frontmatter.name !== expectedName) return `the frontmatter name ${JSON.stringify(frontmatter.name)} differs from the skill's folder name ${JSON.stringify(expectedName)}`;
  return undefined;
}

/**
 * The fields on which two frontmatter objects differ (compared as JSON values, key order
 * ignored); empty when they are identical in content.
 */
export function frontmatterDifferences(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((key) => !sameJson(a[key], b[key])).sort();
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return keys.length === Object.keys(right).length && keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}
