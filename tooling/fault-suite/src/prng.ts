/**
 * A small seeded pseudo-random generator (mulberry32) for the fault suite: the same seed
 * always yields the same inputs, so a failing fuzz case can be replayed from its index.
 *
 * @example
 * ```ts
 * const random = new SeededRandom(0x5eed);
 * random.int(10); // the same number on every run
 * ```
 */
export class SeededRandom {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next number in `[0, 1)`. */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in `[0, bound)`. */
  int(bound: number): number {
    return Math.floor(this.next() * bound);
  }

  /** An integer in `[min, max]`. */
  between(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick() needs a non-empty list');
    return items[this.int(items.length)] as T;
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let text = '';
    for (let i = 0; i < length; i += 1) text += alphabet.charAt(this.int(alphabet.length));
    return text;
  }
}
