/**
 * The one table of which capability each method needs, in both directions (MCP 2025-11-25 basic/lifecycle
 * Capability negotiation). For a request the capability belongs to the receiver (the
 * server must declare `tools` to be sent `tools/list`); for a notification it belongs to
 * the sender (a server sends `notifications/tools/list_changed` only if it declared
 * `tools.listChanged`). Enforcement is strict by default; the session has an option to
 * relax it.
 */
import type { Role } from '../machines/connection-types.js';
import { hasFeature, type BooleanFeature } from '../revisions/registry.js';
import { TASKS_EXTENSION_ID, TASKS_METHODS } from '../extensions/tasks.js';

/** What a method needs to be sent: whose capability, which path in it, from which revision. */
export interface CapabilityRequirement {
  /** Whose capabilities must contain it. */
  readonly holder: Role;
  /** Path inside the capabilities object, e.g. `['resources', 'subscribe']`. */
  readonly path: readonly string[];
  /** The revision feature that introduced the flag; in revisions without it the method needs no flag. */
  readonly feature?: BooleanFeature;
}

function req(holder: Role, path: readonly string[], feature?: BooleanFeature): CapabilityRequirement {
  return feature === undefined ? Object.freeze({ holder, path }) : Object.freeze({ holder, path, feature });
}

/** method → capability that must have been declared (requests: receiver; notifications: sender). */
export const METHOD_CAPABILITIES: Readonly<Record<string, CapabilityRequirement>> = Object.freeze({
  // client → server requests: the server must declare
  'tools/list': req('server', ['tools']),
  'tools/call': req('server', ['tools']),
  'resources/list': req('server', ['resources']),
  'resources/templates/list': req('server', ['resources']),
  'resources/read': req('server', ['resources']),
  'resources/subscribe': req('server', ['resources', 'subscribe']),
  'resources/unsubscribe': req('server', ['resources', 'subscribe']),
  'prompts/list': req('server', ['prompts']),
  'prompts/get': req('server', ['prompts']),
  'completion/complete': req('server', ['completions'], 'completionsCapability'),
  'logging/setLevel': req('server', ['logging']),
  // server → client requests: the client must declare
  'sampling/createMessage': req('client', ['sampling']),
  'elicitation/create': req('client', ['elicitation']),
  'roots/list': req('client', ['roots']),
  // notifications: the sender must declare
  'notifications/message': req('server', ['logging']),
  'notifications/resources/updated': req('server', ['resources', 'subscribe']),
  'notifications/resources/list_changed': req('server', ['resources', 'listChanged']),
  'notifications/tools/list_changed': req('server', ['tools', 'listChanged']),
  'notifications/prompts/list_changed': req('server', ['prompts', 'listChanged']),
  'notifications/roots/list_changed': req('client', ['roots', 'listChanged']),
});

/** Task methods of 2025-11-25: the receiver must declare `tasks` (and `tasks.list` / `tasks.cancel`). */
const TASK_METHODS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  'tasks/get': ['tasks'],
  'tasks/result': ['tasks'],
  'tasks/list': ['tasks', 'list'],
  'tasks/cancel': ['tasks', 'cancel'],
});

/** The methods of the tasks extension (2026-07-28). */
const EXTENSION_TASK_METHODS: ReadonlySet<string> = new Set(TASKS_METHODS);

/** True when `capabilities` contains `path` (a present object or `true` at every step). */
export function hasCapability(capabilities: unknown, path: readonly string[]): boolean {
  let node: unknown = capabilities;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return false;
    // Own members only: a capabilities object declares `constructor` only by naming it.
    node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
    if (node === undefined || node === null || node === false) return false;
  }
  return true;
}

/**
 * The requirement for `method` in `version`, or undefined when it needs none. For task
 * methods the holder is the receiver of the request (`receiver`).
 */
export function capabilityFor(method: string, version: string, receiver: Role): CapabilityRequirement | undefined {
  // Method names come off the wire: own entries only (`constructor` is no task method).
  const task = Object.hasOwn(TASK_METHODS, method) ? TASK_METHODS[method] : undefined;
  if (task !== undefined && hasFeature(version, 'tasks')) return req(receiver, task);
  // 2026-07-28: the tasks extension's methods need the server to list the extension (SEP-2663).
  if (EXTENSION_TASK_METHODS.has(method) && hasFeature(version, 'perRequestMeta')) return req('server', ['extensions', TASKS_EXTENSION_ID]);
  if (task !== undefined) return req(receiver, task);
  const requirement = Object.hasOwn(METHOD_CAPABILITIES, method) ? METHOD_CAPABILITIES[method] : undefined;
  if (requirement === undefined) return undefined;
  if (requirement.feature !== undefined && !hasFeature(version, requirement.feature)) return undefined;
  return requirement;
}

/** Dotted name of a capability path, for error messages (`resources.subscribe`). */
export function capabilityName(path: readonly string[]): string {
  return path.join('.');
}
