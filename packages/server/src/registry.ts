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

  /** Records a change made inside an entry (enabled, metadata). */
  touch(): void {
    this.#generation++;
    this.#snapshot = undefined;
    this.#onChange();
  }
}
