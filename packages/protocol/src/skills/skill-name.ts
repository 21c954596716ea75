/**
 * The Agent Skills naming rule a skill's frontmatter `name` must follow (the skills extension,
 * SEP-2640). It lives with the frontmatter parser, in the `@statemcp/protocol/skills` subpath
 * only, so that the main entry and this subpath share no module (see
 * tooling/scripts/bundle-dist.mjs).
 */
const SKILL_NAME = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

/**
 * Why `name` breaks the Agent Skills naming rules (1–64 characters: lowercase letters, digits
 * and hyphens, no hyphen first, last or twice in a row), as one sentence; undefined when valid.
 *
 * @example
 * ```ts
 * skillNameProblem('pdf-processing'); // undefined
 * skillNameProblem('PDF'); // 'skill name "PDF" …'
 * ```
 */
export function skillNameProblem(name: string): string | undefined {
  if (SKILL_NAME.test(name) && !name.includes('--')) return undefined;
  return `skill name ${JSON.stringify(name)} breaks the Agent Skills naming rules: 1-64 characters, lowercase letters, digits and hyphens, no leading, trailing or consecutive hyphens`;
}
