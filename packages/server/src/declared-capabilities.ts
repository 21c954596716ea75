/**
 * The capabilities a server's handshakes declare, shared: a connection keeps what it
 * declared for its life, so connections that declared the same capabilities share one frozen
 * copy instead of each idle session holding its own.
 *
 * "The same" is decided by walking the fresh capabilities beside the shared copy (plain
 * objects, arrays and primitives; same keys in the same order), not by serialising them:
 * the walk builds nothing (the copy's keys are listed once, when it is made), where a
 * `JSON.stringify` key would build a string per handshake.
 * Anything else (a class instance, a date, a function) never matches, so it gets its own copy.
 */
import type { ServerCapabilities } from './wire-types.js';

/** One frozen copy of the capabilities declared last, handed to every handshake that declares the same. */
export class DeclaredCapabilities {
  #shared: ServerCapabilities | undefined;
  /** The keys of each object in the shared copy, in order (read on every handshake, so listed once). */
  #keys = new WeakMap<object, readonly string[]>();

  /** The shared copy if `capabilities` matches it, else a new frozen copy that becomes the shared one. */
  share(capabilities: ServerCapabilities): ServerCapabilities {
    const shared = this.#shared;
    if (shared !== undefined && this.#same(capabilities, shared)) return shared;
    const keys = new WeakMap<object, readonly string[]>();
    const frozen = freeze(structuredClone(capabilities), keys);
    this.#shared = frozen;
    this.#keys = keys;
    return frozen;
  }

  /** True when `fresh` holds what `copy` holds: the same primitives, plain objects and arrays with the same keys in the same order. */
  #same(fresh: unknown, copy: unknown): boolean {
    if (Object.is(fresh, copy)) return true;
    if (typeof fresh !== 'object' || typeof copy !== 'object' || fresh === null || copy === null) return false;
    if (Array.isArray(fresh)) {
      if (!Array.isArray(copy) || fresh.length !== copy.length) return false;
      for (let i = 0; i < fresh.length; i++) if (!(i in fresh) || !this.#same(fresh[i], copy[i])) return false;
      return true;
    }
    const copyKeys = this.#keys.get(copy);
    if (copyKeys === undefined || !isPlain(fresh)) return false;
    let i = 0;
    for (const key in fresh) {
      if (!Object.hasOwn(fresh, key)) continue;
      if (key !== copyKeys[i] || !this.#same((fresh as Record<string, unknown>)[key], (copy as Record<string, unknown>)[key])) return false;
      i++;
    }
    return i === copyKeys.length;
  }
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** Freezes a copy and everything in it, listing the keys of each of its plain objects in `keys`. */
function freeze<T>(value: T, keys: WeakMap<object, readonly string[]>): T {
  if (typeof value === 'object' && value !== null) {
    if (!Array.isArray(value) && isPlain(value)) keys.set(value, Object.keys(value));
    for (const child of Object.values(value)) freeze(child, keys);
    Object.freeze(value);
  }
  return value;
}
