/**
 * Hot reload of registrations: what one version of the entry module registers is recorded,
 * diffed against what the running server serves, and applied in place — `remove()` for what is
 * gone, `update()` for what changed, `register*` for what is new — so connected clients keep
 * their sessions and get the list_changed notifications the server sends for those changes.
 *
 * The live server never holds the module's handlers directly: each live registration calls
 * through a slot that the latest version fills. A call that started before a reload already
 * holds the old function and finishes on the old code; the next call runs the new one. A
 * registration whose listed shape (config, schemas, metadata) is unchanged is not touched, so
 * editing only a handler's body sends no notification — the list did not change.
 */
import type { CapabilityOverrides, McpServer, RegisteredPrompt, RegisteredResource, RegisteredResourceTemplate, RegisteredTool } from '@statemcp/server';
import { fingerprint } from './fingerprint.js';

/**
 * The capabilities a reloading server declares from the start, whatever the first version
 * registers: a client learns a server's capabilities once, in its handshake (or discovery), so a
 * list that is empty now must already be declared for the client to hear about it — and be told
 * `list_changed` — when a later version fills it, or when a version empties it.
 */
export const RELOADABLE_CAPABILITIES: CapabilityOverrides = Object.freeze({
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
});

/** The four kinds of registration the reload tracks. */
export type RegistrationKind = 'tool' | 'resource' | 'resourceTemplate' | 'prompt';

type AnyFunction = (...args: never[]) => unknown;

/** One `register*` call of a module version: its name, the arguments between name and handler, the handler. */
export interface RecordedRegistration {
  readonly kind: RegistrationKind;
  readonly name: string;
  /** `[config]` (tool, prompt) or `[uri | uriTemplate, metadata]` (resource, template). */
  readonly shape: readonly unknown[];
  readonly handler: AnyFunction;
  /** Whether the module left it enabled (it may call `disable()` on the handle while registering). */
  enabled: boolean;
  /** A stable text of `shape`: equal fingerprints list the same way. */
  readonly fingerprint: string;
}

type LiveHandle = RegisteredTool | RegisteredResource | RegisteredResourceTemplate | RegisteredPrompt;

interface LiveRegistration {
  readonly kind: RegistrationKind;
  readonly name: string;
  readonly handle: LiveHandle;
  /** The handler of the latest version; the live server calls through it. */
  readonly slot: { handler: AnyFunction };
  fingerprint: string;
  enabled: boolean;
}

/** What applying a version changed, by kind and name. */
export interface RegistrationDiff {
  readonly added: readonly string[];
  readonly updated: readonly string[];
  readonly removed: readonly string[];
}

const REGISTER_METHOD = {
  tool: 'registerTool',
  resource: 'registerResource',
  resourceTemplate: 'registerResourceTemplate',
  prompt: 'registerPrompt',
} as const satisfies Record<RegistrationKind, keyof McpServer>;

const keyOf = (kind: RegistrationKind, name: string) => `${kind}:${name}`;

/** The label of a registration in reload messages, e.g. `tool greet`. */
export function registrationLabel(kind: RegistrationKind, name: string): string {
  return `${kind === 'resourceTemplate' ? 'resource template' : kind} ${name}`;
}

/** Builds one `register*` call on `server` from a recorded shape and a handler. */
function callRegister(server: McpServer, kind: RegistrationKind, name: string, shape: readonly unknown[], handler: AnyFunction): LiveHandle {
  const register = (server[REGISTER_METHOD[kind]] as unknown as (...args: unknown[]) => LiveHandle).bind(server);
  return register(name, ...shape, handler);
}

/** Applies a changed shape to a live handle with the kind's `update()`. */
function updateShape(registration: LiveRegistration, shape: readonly unknown[]): void {
  const [first, second] = shape;
  switch (registration.kind) {
    case 'tool':
      (registration.handle as RegisteredTool).update(first as Parameters<RegisteredTool['update']>[0]);
      return;
    case 'prompt':
      (registration.handle as RegisteredPrompt).update(first as Parameters<RegisteredPrompt['update']>[0]);
      return;
    case 'resource':
      (registration.handle as RegisteredResource).update({ ...(second as object), uri: first as string });
      return;
    case 'resourceTemplate':
      (registration.handle as RegisteredResourceTemplate).update({ ...(second as object), uriTemplate: first as string });
      return;
  }
}

/**
 * Records the registrations a module version makes. `server` is what the module's register
 * function receives: the live server, except that the four `register*` methods record (and
 * check the call on `scratch`, a throwaway server, so a registration the server would refuse
 * fails the version before anything live changes). Every other method — `sendLoggingMessage`,
 * `notifyResourceUpdated`, `declareExtension`, … — reaches the live server.
 */
export class RegistrationRecorder {
  readonly registrations: RecordedRegistration[] = [];
  readonly server: McpServer;
  readonly #scratch: McpServer;
  #sealed = false;

  constructor(live: McpServer, scratch: McpServer) {
    this.#scratch = scratch;
    const record = (kind: RegistrationKind) => (name: string, ...rest: unknown[]) => this.#record(kind, name, rest);
    const recorders: Record<string, unknown> = {
      registerTool: record('tool'),
      registerResource: record('resource'),
      registerResourceTemplate: record('resourceTemplate'),
      registerPrompt: record('prompt'),
    };
    this.server = new Proxy(live, {
      get(target, property) {
        if (typeof property === 'string' && property in recorders) return recorders[property];
        // Read and bound on the real server: its methods use private fields a proxy does not have.
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function' ? (value as AnyFunction).bind(target) : value;
      },
    });
  }

  /** Ends recording: handles given out now act on the live registrations (see `attach`). */
  seal(): void {
    this.#sealed = true;
  }

  #record(kind: RegistrationKind, name: string, rest: unknown[]): LiveHandle {
    if (this.#sealed) throw new TypeError(`register ${registrationLabel(kind, name)} from the register function itself, not later: statemcp dev reloads what it registers`);
    const handler = rest.at(-1);
    if (typeof handler !== 'function') throw new TypeError(`${registrationLabel(kind, name)}: the last argument must be the handler function`);
    const shape = rest.slice(0, -1);
    // Throws (a bad schema, an unmatchable URI template, a duplicate) before anything is recorded.
    const scratchHandle = callRegister(this.#scratch, kind, name, shape, handler as AnyFunction);
    const recorded: RecordedRegistration = { kind, name, shape, handler: handler as AnyFunction, enabled: true, fingerprint: fingerprint(shape) };
    this.registrations.push(recorded);
    return this.#handleFor(recorded, scratchHandle);
  }

  /** The handle the module gets: enable/disable/remove while registering shape what is recorded. */
  #handleFor(recorded: RecordedRegistration, scratchHandle: LiveHandle): LiveHandle {
    const registrations = this.registrations;
    const notAfter = (what: string) => () => {
      throw new TypeError(`${registrationLabel(recorded.kind, recorded.name)}: ${what}() on a handle works only inside the register function under statemcp dev; edit the module instead`);
    };
    return {
      get name() {
        return recorded.name;
      },
      get enabled() {
        return recorded.enabled;
      },
      enable: () => {
        recorded.enabled = true;
        scratchHandle.enable();
      },
      disable: () => {
        recorded.enabled = false;
        scratchHandle.disable();
      },
      remove: () => {
        const index = registrations.indexOf(recorded);
        if (index !== -1) registrations.splice(index, 1);
        scratchHandle.remove();
      },
      update: notAfter('update'),
    };
  }
}

/**
 * The registrations the dev server serves, kept in step with the latest good module version.
 */
export class LiveRegistrations {
  readonly #server: McpServer;
  readonly #live = new Map<string, LiveRegistration>();

  constructor(server: McpServer) {
    this.#server = server;
  }

  /** How many registrations are served now. */
  get size(): number {
    return this.#live.size;
  }

  /**
   * Makes the live server serve exactly `next`: removes first (so a renamed URI is free), then
   * updates and adds. Every surviving registration's slot takes the new handler.
   */
  apply(next: readonly RecordedRegistration[]): RegistrationDiff {
    const wanted = new Map(next.map((registration) => [keyOf(registration.kind, registration.name), registration]));
    const removed: string[] = [];
    for (const [key, registration] of this.#live) {
      if (wanted.has(key)) continue;
      registration.handle.remove();
      this.#live.delete(key);
      removed.push(registrationLabel(registration.kind, registration.name));
    }
    const added: string[] = [];
    const updated: string[] = [];
    for (const [key, recorded] of wanted) {
      const live = this.#live.get(key);
      if (live === undefined) {
        const slot = { handler: recorded.handler };
        const handle = callRegister(this.#server, recorded.kind, recorded.name, recorded.shape, (...args: never[]) => slot.handler(...args));
        if (!recorded.enabled) handle.disable();
        this.#live.set(key, { kind: recorded.kind, name: recorded.name, handle, slot, fingerprint: recorded.fingerprint, enabled: recorded.enabled });
        added.push(registrationLabel(recorded.kind, recorded.name));
        continue;
      }
      live.slot.handler = recorded.handler;
      let changed = false;
      if (live.fingerprint !== recorded.fingerprint) {
        updateShape(live, recorded.shape);
        live.fingerprint = recorded.fingerprint;
        changed = true;
      }
      if (live.enabled !== recorded.enabled) {
        if (recorded.enabled) live.handle.enable();
        else live.handle.disable();
        live.enabled = recorded.enabled;
        changed = true;
      }
      if (changed) updated.push(registrationLabel(recorded.kind, recorded.name));
    }
    return { added, updated, removed };
  }
}
