/**
 * The parts of the Cloudflare Workers runtime the `/cloudflare` doors use, written as small
 * structural types so nobody installs `@cloudflare/workers-types` for them: the types of that
 * package (`DurableObjectState`, `DurableObjectStorage`, `DurableObjectNamespace`) are assignable
 * to these, and so is a test's in-memory stand-in.
 *
 * Semantics relied on (Cloudflare's Durable Objects documentation): one live instance per object
 * id worldwide; storage operations of one object are serialized by its input and output gates,
 * so a `get` followed by a `put` with no other I/O between them is atomic; `list` returns keys in
 * ascending UTF-8 order.
 */

/** A Durable Object id: its 64 hex digits are `toString()`. */
export interface DurableObjectIdLike {
  /** The id as 64 hex digits. */
  toString(): string;
}

/** Options of {@link DurableObjectStorageLike.list}. */
export interface DurableObjectListOptionsLike {
  /** Only keys starting with this. */
  prefix?: string;
  /** Only keys after this one (exclusive). */
  startAfter?: string;
  /** At most this many entries. */
  limit?: number;
}

/** The transactional key-value storage of one Durable Object (`state.storage`). */
export interface DurableObjectStorageLike {
  /** The value stored under `key`, or `undefined`. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores `value` (structured-cloned) under `key`. */
  put<T>(key: string, value: T): Promise<void>;
  /** Deletes one key; resolves whether it existed. */
  delete(key: string): Promise<boolean>;
  /** Deletes several keys (at most 128 per call); resolves how many existed. */
  delete(keys: string[]): Promise<number>;
  /** The entries whose keys match `options`, in ascending key order. */
  list<T = unknown>(options?: DurableObjectListOptionsLike): Promise<Map<string, T>>;
  /** Schedules the object's `alarm()` (optional: a stand-in without alarms keeps expired records until they are read). */
  setAlarm?(scheduledTime: number): Promise<void>;
  /** Deletes everything the object stores. */
  deleteAll?(): Promise<void>;
}

/** What a Durable Object's constructor receives as its first argument (`ctx` / `state`). */
export interface DurableObjectStateLike {
  readonly id: DurableObjectIdLike;
  readonly storage: DurableObjectStorageLike;
}

/** A stub of one Durable Object: its `fetch` delivers a request to the object's `fetch`. */
export interface DurableObjectStubLike {
  /** Sends `request` to the object's `fetch` and resolves with its answer. */
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding (`env.MCP_OBJECT`). */
export interface DurableObjectNamespaceLike {
  /** A fresh, random object id. */
  newUniqueId(): DurableObjectIdLike;
  /** The id of the object named `name` (the same name always gives the same object). */
  idFromName(name: string): DurableObjectIdLike;
  /** Parses an id's `toString()`; throws when it is not an id of this namespace. */
  idFromString(id: string): DurableObjectIdLike;
  /** The stub of object `id` (created on its first request). */
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}
