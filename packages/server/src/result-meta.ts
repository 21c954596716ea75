/**
 * The `_meta` a modern server adds to every result: its own `Implementation` under
 * `io.modelcontextprotocol/serverInfo` (MCP 2026-07-28 basic/index §_meta). The `_meta` is
 * built once per server and revision and sealed (`sealJson`: frozen all the way down), so a
 * result without `_meta` of its own shares it, and the in-memory transport hands it over
 * without copying it.
 */
import { isJsonObject, type JsonObject, SERVER_INFO_META_KEY } from '@statemcp/protocol';
import { sealJson } from '@statemcp/protocol/internal';

/**
 * The sealed `_meta` naming `serverInfo` (already shaped for the revision).
 *
 * @example
 * ```ts
 * const meta = serverInfoMeta({ name: 'weather', version: '1.0.0' });
 * withResultMeta({ content: [] }, meta)._meta === meta; // true
 * ```
 */
export function serverInfoMeta(serverInfo: JsonObject): JsonObject {
  return sealJson({ [SERVER_INFO_META_KEY]: serverInfo });
}

/**
 * `result` naming the server in its `_meta` (see {@link serverInfoMeta}); a handler's own
 * `_meta` is kept, its other members too. A copy: copied with `Object.assign` and the key
 * stored after, which allocates less per modern call than the literal
 * `{ ...result, _meta: { ...meta, [key]: info } }`.
 */
export function withResultMeta(result: JsonObject, sealed: JsonObject): JsonObject {
  const own = result._meta;
  let meta = sealed;
  if (own !== undefined) {
    meta = isJsonObject(own) ? Object.assign({}, own) : {};
    meta[SERVER_INFO_META_KEY] = sealed[SERVER_INFO_META_KEY];
  }
  const withInfo: JsonObject = Object.assign({}, result);
  withInfo._meta = meta;
  return withInfo;
}
