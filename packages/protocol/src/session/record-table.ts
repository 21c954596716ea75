/** Deletes from the map before it is replaced by a copy (see {@link RecordTable}): the copy's cost per delete stays below one entry. */
const REBUILD_AFTER = 256;

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
 *
 * The map is replaced by a copy of itself after 256 deletes (or twice its size,
 * if more). Why: a `Map` that keeps changing rehashes into a new table every few dozen inserts,
 * and V8 leaves in the old table its entries and a link to the new one. A full GC moves the live
 * table to the old generation; from then on each discarded table, old and unreachable, still
 * holds the next one and the records it had, and minor GCs, which trust old objects, keep them:
 * with many requests in flight every record, its message and its answer were copied by two minor
 * GCs and promoted, each minor GC slower for it, until the next full GC. A copy has no link from
 * the tables before it, so the chain ends there (tooling/bench/profiling/README.md has the figures).
 */
export class RecordTable<K, V> {
  #slotted = false;
  #slotKey: K | undefined;
  #slotValue: V | undefined;
  #rest: Map<K, V> | undefined;
  /** Deletes from {@link #rest} since it was made. */
  #deletes = 0;

  /** Entries held. */
  get size(): number {
    return (this.#slotted ? 1 : 0) + (this.#rest?.size ?? 0);
  }

  /** The value stored under `key`, if any. */
  get(key: K): V | undefined {
    if (this.#slotted && this.#slotKey === key) return this.#slotValue;
    return this.#rest?.get(key);
  }

  /** Whether `key` is held. */
  has(key: K): boolean {
    return (this.#slotted && this.#slotKey === key) || this.#rest?.has(key) === true;
  }

  /** Stores `value` under `key`, replacing what was there (its place in the order kept). */
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
    const rest = this.#rest;
    if (rest === undefined || !rest.delete(key)) return false;
    this.#deletes += 1;
    if (this.#deletes >= REBUILD_AFTER && this.#deletes >= 2 * rest.size) {
      this.#rest = rest.size === 0 ? undefined : new Map(rest);
      this.#deletes = 0;
    }
    return true;
  }

  /** The values in insertion order (a copy, safe to change the table while iterating it). */
  values(): V[] {
    const values: V[] = [];
    if (this.#slotted) values.push(this.#slotValue as V);
    if (this.#rest !== undefined) for (const value of this.#rest.values()) values.push(value);
    return values;
  }
}
