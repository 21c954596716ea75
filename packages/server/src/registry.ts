/**
 * An insertion-ordered map of registrations with a generation counter that moves on every
 * change, and one change listener (the server coalesces list_changed notifications from it).
 */
export class Registry<T> {
  readonly #entries = new Map<string, T>();
  #generation = 0;
  #snapshot: T[] | undefined;
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
    this.touch();
  }

  delete(key: string): boolean {
    const removed = this.#entries.delete(key);
    if (removed) this.touch();
    return removed;
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

  /** Records a change made inside an entry (enabled, metadata). */
  touch(): void {
    this.#generation++;
    this.#snapshot = undefined;
    this.#onChange();
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
export function registrationHandle<T extends { enabled: boolean }>(registry: Registry<T>, entry: T, identity: () => { readonly name: string; readonly key: string }): RegistrationHandle {
  const setEnabled = (enabled: boolean) => {
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    registry.touch();
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
