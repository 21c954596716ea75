import { sameRule, type Viewable } from './visibility.js';

/** The entries changed since the last {@link Registry.takeChanges}: `all` when a change may concern anyone. */
export interface RegistryChanges<T> {
  readonly all: boolean;
  readonly entries: readonly T[];
}

/**
 * An insertion-ordered map of registrations with a generation counter that moves on every
 * change, and one change listener (the server coalesces list_changed notifications from it).
 * It remembers which entries changed, so that a change to an entry only some principals see is
 * announced to those principals only.
 */
export class Registry<T extends Viewable> {
  readonly #entries = new Map<string, T>();
  #generation = 0;
  #snapshot: T[] | undefined;
  #ruled: (readonly [string, T])[] | undefined;
  #changed = new Set<T>();
  #changedAll = false;
  readonly #onChange: () => void;

  constructor(onChange: () => void) {
    this.#onChange = onChange;
  }

  /** Moves on every add, replace, remove or explicit `touch()`. */
  get generation(): number {
    return this.#generation;
  }

  get size(): number {
    return this.#entries.size;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  get(key: string): T | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: T): void {
    this.#entries.set(key, value);
    this.touch(value);
  }

  delete(key: string): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#entries.delete(key);
    this.touch(entry);
    return true;
  }

  /** Every entry in registration order (a cached array; do not mutate). */
  values(): readonly T[] {
    this.#snapshot ??= [...this.#entries.values()];
    return this.#snapshot;
  }

  /**
   * Moves the entry at `from` to the key `to`, keeping its place in the order (a rename).
   * Does not record a change: the caller touches once when its whole update is applied.
   */
  rekey(from: string, to: string): void {
    if (from === to) return;
    if (this.#entries.has(to)) throw new Error(`${to} is already registered`);
    const moved = [...this.#entries].map(([key, value]): [string, T] => [key === from ? to : key, value]);
    this.#entries.clear();
    for (const [key, value] of moved) this.#entries.set(key, value);
  }

  /** The entries with a visibility rule and their keys, in registration order (a cached array; do not mutate). */
  ruledKeyed(): readonly (readonly [string, T])[] {
    this.#ruled ??= [...this.#entries].filter(([, entry]) => entry.visibility !== undefined);
    return this.#ruled;
  }

  /**
   * Records a change made inside `entry` (enabled, metadata), or one that may concern every
   * principal (`undefined`: a rule itself changed).
   */
  touch(entry?: T): void {
    this.#generation++;
    this.#snapshot = undefined;
    this.#ruled = undefined;
    if (entry === undefined) this.#changedAll = true;
    else this.#changed.add(entry);
    this.#onChange();
  }

  /** Records an update of `entry` whose rule was `before`: only its viewers are concerned unless the rule changed. */
  touchUpdated(entry: T, before: Viewable['visibility']): void {
    this.touch(sameRule(before, entry.visibility) ? entry : undefined);
  }

  /** The changes since the last call, forgotten. */
  takeChanges(): RegistryChanges<T> {
    const changes = { all: this.#changedAll, entries: [...this.#changed] };
    this.#changed = new Set();
    this.#changedAll = false;
    return changes;
  }
}

/** The handle every registration returns: enable, disable, remove (each kind adds its `update`). */
export interface RegistrationHandle {
  /** The current name (it follows a rename by `update`). */
  readonly name: string;
  /** Whether the entry is listed and served. */
  readonly enabled: boolean;
  /** Lists and serves the entry again. */
  enable(): void;
  /** Hides the entry: it leaves its list and is no longer served. */
  disable(): void;
  /** Unregisters the entry. */
  remove(): void;
}

/** Builds the handle for `entry`, stored in `registry` under the key `identity()` gives (with its name); every change touches the registry. */
export function registrationHandle<T extends Viewable>(registry: Registry<T>, entry: T, identity: () => { readonly name: string; readonly key: string }): RegistrationHandle {
  const setEnabled = (enabled: boolean) => {
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    registry.touch(entry);
  };
  return {
    get name() {
      return identity().name;
    },
    get enabled() {
      return entry.enabled;
    },
    enable: () => setEnabled(true),
    disable: () => setEnabled(false),
    remove: () => {
      const { key } = identity();
      if (registry.get(key) === entry) registry.delete(key);
    },
  };
}
