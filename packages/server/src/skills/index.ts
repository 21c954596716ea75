/**
 * @statemcp/server/skills — the skills extension (`io.modelcontextprotocol/skills`, SEP-2640)
 * for `McpServer`: publish a folder of Agent Skills, or skills built in code, with one call.
 * Reads folders with Node's `fs` (Node, Bun and Deno); skills built in code need no file system.
 */

export { registerSkills } from './register-skills.js';
export type { RegisterSkillsOptions, RegisteredSkills, SkillDefinition } from './register-skills.js';
export { SkillDefinitionError } from './skill-catalog.js';
export type { SkillLimits } from './skill-catalog.js';

export { SKILLS_EXTENSION_ID } from '@statemcp/protocol';
export type { SkillEntry, SkillFrontmatter, SkillResource, SkillsExtensionSettings } from '@statemcp/protocol';
