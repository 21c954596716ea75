/**
 * @statemcp/protocol/skills — helpers of the skills extension (`io.modelcontextprotocol/skills`)
 * shared by `@statemcp/server/skills` and `@statemcp/client/skills`: the `SKILL.md`
 * frontmatter parser (on the `yaml` library), a field-by-field frontmatter comparison and the
 * `sha256:` file digest. The ids and wire shapes are in the main entry.
 */

export { frontmatterDifferences, frontmatterNameProblem, parseSkillMarkdown } from './frontmatter.js';
export type { SkillMarkdown } from './frontmatter.js';
export { skillDigest } from './digest.js';
