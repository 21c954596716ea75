import * as z from 'zod/mini';

/**
 * zod's global configuration. Its `memoizer` (zod 4.6+) is installed by the first object
 * schema built with classic zod (a server's tool shapes): every container built while it is
 * set keeps it, and at its first parse walks its whole subtree to learn whether it can recurse.
 * For a revision schema that walk builds every deferred schema below it (the client's
 * capabilities tree at the first `initialize`), which that parse would never reach. The
 * revision schemas describe JSON from the wire, which has no cycles, so they are built without
 * it: as they are when classic zod is not loaded (a browser bundle).
 */
const zodConfig: { memoizer?: unknown } = z.config();

/** `build()` with zod's memoizer unset, so the schemas it constructs do not attach it. */
function unmemoized<T>(build: () => T): T {
  const memoizer = zodConfig.memoizer;
  if (!memoizer) return build();
  zodConfig.memoizer = undefined;
  try {
    return build();
  } finally {
    zodConfig.memoizer = memoizer;
  }
}

/**
 * A schema built at its first use. The five revision modules declare a few hundred zod
 * schemas, each later revision extending its predecessor's; built at import they would delay
 * a process's first message (a stdio server's cold start), although
 * a session needs only the methods it exchanges.
 *
 * `deferred(build)` returns an empty object whose prototype is a proxy: the first property
 * read (`_zod`, which `z.extend(stand, …)` and every parse read, `.safeParse`, `in`,
 * `instanceof`) reaches the proxy, which builds the schema, copies its own properties onto
 * the object and gives the object the schema's prototype. From then on the object is an
 * ordinary zod schema — no proxy left on the path of a parse, so a realized schema validates
 * as fast as one built at import. zod's methods (`safeParse`, `check`) sit on that prototype and
 * read `this._zod`, which the stand-in now owns, so they act on the schema. Before its first
 * read the stand-in has no own keys (nothing in the SDK enumerates a schema's keys).
 */
export function deferred<T extends object>(build: () => T): T {
  let built: T | undefined;
  const realize = (): T => {
    if (built !== undefined) return built;
    built = unmemoized(build);
    Object.defineProperties(stand, Object.getOwnPropertyDescriptors(built));
    Object.setPrototypeOf(stand, Object.getPrototypeOf(built) as object | null);
    return built;
  };
  const pending: ProxyHandler<object> = {
    get: (_, key, receiver) => (realize(), Reflect.get(stand, key, receiver)),
    has: (_, key) => (realize(), Reflect.has(stand, key)),
    // `instanceof` walks the chain: the realized stand-in's prototype comes next.
    getPrototypeOf: () => (realize(), Reflect.getPrototypeOf(stand)),
    set: (_, key, value, receiver) => (realize(), Reflect.set(stand, key, value, receiver)),
  };
  // Created with its prototype rather than given one later: V8 keeps such an object in fast
  // mode (an `Object.create(null)` one would stay a slow dictionary and slow every parse).
  const stand = Object.create(new Proxy({}, pending)) as T;
  return stand;
}

/**
 * A shape fragment (`{ _meta: z.optional(Meta) }`, spread into objects or passed to
 * `z.extend`) built at its first use, like {@link deferred}'s schemas: reading, spreading or
 * enumerating it builds it once. Only schema builders use fragments, so a fragment costs
 * nothing until a schema that embeds it is built. Not for a shape kept by a schema
 * (`z.object(fragment)` would read it through the proxy at every parse): spread it there.
 */
export function deferredShape<T extends object>(build: () => T): T {
  let built = false;
  const shape = {} as T;
  const filled = (): T => {
    if (!built) {
      built = true;
      Object.assign(shape, unmemoized(build));
    }
    return shape;
  };
  return new Proxy(shape, {
    get: (_, key) => Reflect.get(filled(), key),
    has: (_, key) => Reflect.has(filled(), key),
    ownKeys: () => Reflect.ownKeys(filled()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(filled(), key),
  });
}
