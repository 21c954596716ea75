/**
 * The two calls of the skills extension (`io.modelcontextprotocol/skills`) behind
 * `client.listSkills()` and `client.getSkill()`: sent only once the server declared the
 * extension (the spec's rule for clients), with the result's shape checked. Nothing here
 * reads a skill's files; that is `loadSkill` in `@statemcp/client/skills`.
 */
import {
  CapabilityNotSupportedError,
  InvalidResultError,
  SKILLS_EXTENSION_ID,
  extensionSettings,
  type GetSkillResult,
  type JsonObject,
  type ListSkillsResult,
} from '@statemcp/protocol';
import type { Client } from './client.js';
import type { CallOptions } from './options.js';

/** Throws `CapabilityNotSupportedError` unless the server declared the skills extension. */
export function requireSkills(client: Client, method: string): void {
  if (extensionSettings(client.serverCapabilities, SKILLS_EXTENSION_ID) === undefined) {
    throw new CapabilityNotSupportedError(method, `extensions["${SKILLS_EXTENSION_ID}"]`);
  }
}

/** Sends `skills/list` or `skills/get` and checks the result has the entry container it must. */
export async function skillsCall(client: Client, method: 'skills/list' | 'skills/get', params: JsonObject, options: CallOptions): Promise<JsonObject> {
  requireSkills(client, method);
  const result = await client.request(method, params, { ...options, optIn: false });
  const container = method === 'skills/list' ? result.skills : result.skill;
  const valid = method === 'skills/list' ? Array.isArray(container) : typeof container === 'object' && container !== null && !Array.isArray(container);
  if (!valid) throw new InvalidResultError(`${method}: the result has no ${method === 'skills/list' ? 'skills array' : 'skill object'}`);
  return result;
}

export type { GetSkillResult, ListSkillsResult };
