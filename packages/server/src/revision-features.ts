/**
 * Which optional fields and capabilities exist in which protocol revision, and the
 * functions that shape outbound objects for a negotiated revision by dropping what it
 * lacks (MCP 2025-11-25 basic/lifecycle `Implementation` table; MCP 2025-11-25 basic/lifecycle
 * §Initialization). Which revision has which field is
 * data in the protocol's revision registry (`Revision.features`), read through `hasFeature`.
 */
import { TASKS_EXTENSION_ID, type JsonObject } from '@statemcp/protocol';
import { hasFeature } from '@statemcp/protocol/internal';
import type { Implementation, Prompt, Resource, ResourceTemplate, ServerCapabilities, ToolDefinition } from './wire-types.js';

function copy<T extends object>(source: T, keys: readonly (keyof T)[]): JsonObject {
  const out: JsonObject = {};
  for (const key of keys) {
    const value = source[key];
    if (value !== undefined) out[key as string] = value;
  }
  return out;
}

/** `serverInfo` for `version`: `title` from 2025-06-18, `description`/`icons`/`websiteUrl` from 2025-11-25. */
export function implementationFor(info: Implementation, version: string): JsonObject {
  const keys: (keyof Implementation)[] = ['name', 'version'];
  if (hasFeature(version, 'title')) keys.push('title');
  if (hasFeature(version, 'icons')) keys.push('description', 'icons', 'websiteUrl');
  return copy(info, keys);
}

/**
 * Capabilities for `version`: no `completions` before 2025-03-26, no `tasks` before 2025-11-25.
 * From 2026-07-28 on, `listChanged` and `resources.subscribe` say what a `subscriptions/listen`
 * stream delivers (the filter keys this server honours).
 */
export function capabilitiesFor(capabilities: ServerCapabilities, version: string): JsonObject {
  const out: JsonObject = { ...capabilities };
  if (!hasFeature(version, 'completionsCapability')) delete out.completions;
  if (!hasFeature(version, 'tasks')) delete out.tasks;
  // The tasks extension exists only on the 2026-07-28 wire (legacy connections use core tasks).
  const extensions = out.extensions;
  if (!hasFeature(version, 'perRequestMeta') && typeof extensions === 'object' && extensions !== null && TASKS_EXTENSION_ID in extensions) {
    const { [TASKS_EXTENSION_ID]: _t, ...rest } = extensions as JsonObject;
    if (Object.keys(rest).length === 0) delete out.extensions;
    else out.extensions = rest;
  }
  return out;
}

/** A tool for `version`: annotations from 2025-03-26; title, outputSchema, `_meta` from 2025-06-18; icons, execution from 2025-11-25. */
export function toolFor(tool: ToolDefinition, version: string): JsonObject {
  const keys: (keyof ToolDefinition)[] = ['name', 'description', 'inputSchema'];
  if (hasFeature(version, 'toolAnnotations')) keys.push('annotations');
  if (hasFeature(version, 'title')) keys.push('title', 'outputSchema', '_meta');
  if (hasFeature(version, 'icons')) keys.push('icons', 'execution');
  return copy(tool, keys);
}

/** A resource for `version`: title and `_meta` from 2025-06-18, icons from 2025-11-25. */
export function resourceFor(resource: Resource, version: string): JsonObject {
  const keys: (keyof Resource)[] = ['uri', 'name', 'description', 'mimeType', 'annotations', 'size'];
  if (hasFeature(version, 'title')) keys.push('title', '_meta');
  if (hasFeature(version, 'icons')) keys.push('icons');
  return copy(resource, keys);
}

/** A resource template for `version`: title and `_meta` from 2025-06-18, icons from 2025-11-25. */
export function resourceTemplateFor(template: ResourceTemplate, version: string): JsonObject {
  const keys: (keyof ResourceTemplate)[] = ['uriTemplate', 'name', 'description', 'mimeType', 'annotations'];
  if (hasFeature(version, 'title')) keys.push('title', '_meta');
  if (hasFeature(version, 'icons')) keys.push('icons');
  return copy(template, keys);
}

/** A prompt for `version`: title (also on arguments) and `_meta` from 2025-06-18, icons from 2025-11-25. */
export function promptFor(prompt: Prompt, version: string): JsonObject {
  const keys: (keyof Prompt)[] = ['name', 'description'];
  const titled = hasFeature(version, 'title');
  if (titled) keys.push('title', '_meta');
  if (hasFeature(version, 'icons')) keys.push('icons');
  const out = copy(prompt, keys);
  if (prompt.arguments !== undefined) {
    out.arguments = prompt.arguments.map((argument) => copy(argument, titled ? ['name', 'title', 'description', 'required'] : ['name', 'description', 'required']));
  }
  return out;
}
