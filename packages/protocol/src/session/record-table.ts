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

/** Slots of a ring when it is first made (it doubles when half full). */
const FIRST_RING = 64;

/**
 * The ledger's table of this side's own requests in flight. Their ids are this side's, counted
 * up from 1 (`outbound.ts`), so a request's slot is its id modulo the ring's size: a store, a
 * load and a compare per request, no hashing and nothing allocated once the ring exists (a
 * `Map` allocated ≈90 B per request for its tables here). When a new id lands on a slot still
 * held by a request that old, the old one moves to a {@link RecordTable} beside the ring, so one
 * long call among many short ones keeps the ring small; when the ring is half full it doubles.
 * Any other key (a string id a peer answers with) is looked up beside the ring only.
 *
 * Insertion order is the ids' order: a request sent again under a new id (Multi Round-Trip
 * Requests) is deleted and stored again, as it would move to a `Map`'s end.
 */
export class OutboundTable<V extends { readonly id: string | number }> {
  #ring: Array<V | undefined> | undefined;
  #mask = 0;
  #inRing = 0;
  #older: RecordTable<string | number, V> | undefined;

  /** Entries held. */
  get size(): number {
    return this.#inRing + (this.#older?.size ?? 0);
  }

  /** The value stored under `key`, if any. */
  get(key: string | number): V | undefined {
    const ring = this.#ring;
    if (ring !== undefined && typeof key === 'number') {
      const value = ring[key & this.#mask];
      if (value !== undefined && value.id === key) return value;
    }
    return this.#older?.get(key);
  }

  /** Stores `value` under its id, which no value held has. */
  add(value: V): void {
    const key = value.id;
    if (typeof key !== 'number' || !Number.isSafeInteger(key)) {
      (this.#older ??= new RecordTable()).set(key, value);
      return;
    }
    const ring = (this.#ring ??= this.#newRing(FIRST_RING));
    const slot = key & this.#mask;
    const there = ring[slot];
    if (there !== undefined) {
      if (2 * this.#inRing >= ring.length) {
        this.#grow();
        this.add(value);
        return;
      }
      (this.#older ??= new RecordTable()).set(there.id, there); // an old request still in flight
      this.#inRing--;
    }
    ring[slot] = value;
    this.#inRing++;
  }

  /** Removes `key`; true when it was there. */
  delete(key: string | number): boolean {
    const ring = this.#ring;
    if (ring !== undefined && typeof key === 'number') {
      const slot = key & this.#mask;
      const value = ring[slot];
      if (value !== undefined && value.id === key) {
        ring[slot] = undefined;
        this.#inRing--;
        return true;
      }
    }
    return this.#older?.delete(key) === true;
  }

  /** The values in the order of their ids (a copy, safe to change the table while iterating it). */
  values(): V[] {
    const values: V[] = this.#older?.values() ?? [];
    for (const value of this.#ring ?? []) if (value !== undefined) values.push(value);
    return values.sort(byId);
  }

  #newRing(size: number): Array<V | undefined> {
    this.#mask = size - 1;
    return new Array<V | undefined>(size).fill(undefined);
  }

  /** Doubles the ring; entries that land on one slot keep the newer there, the older beside it. */
  #grow(): void {
    const old = this.#ring ?? [];
    this.#ring = this.#newRing(old.length * 2);
    this.#inRing = 0;
    for (const value of old.filter((entry): entry is V => entry !== undefined).sort(byId)) this.add(value);
  }
}

function byId(a: { readonly id: string | number }, b: { readonly id: string | number }): number {
  if (typeof a.id === 'number' && typeof b.id === 'number') return a.id - b.id;
  return typeof a.id === 'number' ? 1 : typeof b.id === 'number' ? -1 : 0;
}
