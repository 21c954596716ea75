/**
 * The ledger's table of in-flight requests by id: a `Map` whose oldest entry, while the map
 * behind it is empty, is kept in a slot of its own.
 *
 * Why: V8 gives a `Map`'s hash table back when its last entry is deleted and allocates a new
 * one at the next insert, so a map that goes 0 → 1 → 0 entries per request allocates its
 * table (≈150 B) for every request. A sequential client, and a server answering one request
 * at a time, keep their one request in the slot and allocate nothing; with more in flight the
 * rest go to the map, whose table then lives on. An idle session holds no map at all.
 *
 * Insertion order is the `Map`'s: the slot is filled only while the map is empty, so its entry
 * is always older than every entry of the map.
 */
export class RecordTable<K, V> {
  #slotted = false;
  #slotKey: K | undefined;
  #slotValue: V | undefined;
  #rest: Map<K, V> | undefined;

  get size(): number {
    return (this.#slotted ? 1 : 0) + (this.#rest?.size ?? 0);
  }

  get(key: K): V | undefined {
    if (this.#slotted && this.#slotKey === key) return this.#slotValue;
    return this.#rest?.get(key);
  }

  has(key: K): boolean {
    return (this.#slotted && this.#slotKey === key) || this.#rest?.has(key) === true;
  }

  set(key: K, value: V): void {
    if (this.#slotted ? this.#slotKey === key : this.#rest === undefined || this.#rest.size === 0) {
      this.#slotted = true;
      this.#slotKey = key;
      this.#slotValue = value;
      return;
    }
    (this.#rest ??= new Map()).set(key, value);
  }

  /** Removes `key`; true when it was there. */
  delete(key: K): boolean {
    if (this.#slotted && this.#slotKey === key) {
      this.#slotted = false;
      this.#slotKey = undefined;
      this.#slotValue = undefined;
      return true;
    }
    return this.#rest?.delete(key) === true;
  }

  /** The values in insertion order (a copy, safe to change the table while iterating it). */
  values(): V[] {
    const values: V[] = [];
    if (this.#slotted) values.push(this.#slotValue as V);
    if (this.#rest !== undefined) for (const value of this.#rest.values()) values.push(value);
    return values;
  }
}
