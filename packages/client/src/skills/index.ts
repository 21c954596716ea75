/**
 * @statemcp/client/skills — the host side of the skills extension (`io.modelcontextprotocol/skills`,
 * SEP-2640): load a skill listed by `client.listSkills()` or fetched with `client.getSkill()`,
 * lazily, with every file verified (size, digest, frontmatter) against the entry.
 */

export { loadSkill } from './load-skill.js';
export type { LoadedSkill, VerifiedSkillFile } from './load-skill.js';

export { SKILLS_EXTENSION_ID, SkillVerificationError } from '@statemcp/protocol';
export type { GetSkillResult, ListSkillsResult, SkillEntry, SkillFrontmatter, SkillResource, SkillVerificationFailure } from '@statemcp/protocol';
