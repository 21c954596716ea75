/**
 * The `_meta` of every outbound request, added in one place just before the request is
 * written (so a request held during discovery gets the version the connection settled on):
 * the progress token when the caller asked for progress and — in a revision with the
 * `perRequestMeta` feature (2026-07-28+, MCP 2026-07-28 basic/index §_meta) — the protocol
 * version, the client's
 * capabilities and its self-reported info. `_meta` keys the caller passed are kept; the
 * protocol's own keys win.
 */
import { sealJson } from '../jsonrpc/clone-json.js';
import { isJsonObject, type JsonObject, type JsonRpcRequest } from '../jsonrpc/messages.js';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '../revisions/blocks/modern.js';

/** What a modern-era client states about itself on every request. */
export interface RequestIdentity {
  /** `io.modelcontextprotocol/protocolVersion`: the version of this request. */
  readonly version: string;
  /** `io.modelcontextprotocol/clientCapabilities`: the client's declared capabilities (`{}` = none). */
  readonly capabilities: JsonObject;
  /** `io.modelcontextprotocol/clientInfo`: the client's `Implementation`, when known. */
  readonly clientInfo: JsonObject | undefined;
  /** The three above as one `_meta`, shared by every request that adds nothing to it; sealed (`sealJson`) from its second use. */
  readonly meta: JsonObject;
  /** The capabilities and client info as the caller gave them, to tell whether they changed. */
  readonly declared: { readonly capabilities: JsonObject; readonly clientInfo: JsonObject | undefined };
  /** Whether `meta` is sealed. */
  readonly sealed: boolean;
}

/**
 * The identity of a request at `version`: `previous` when nothing changed since it was sealed,
 * else a new one. The members are sealed (`sealJson`) once they are used a second time, so that
 * each later request reuses them rather than rebuilding its `_meta`, and a peer in the same
 * process neither copies nor validates them again; capabilities that come as a new object with
 * every request (a per-request capabilities callback) are never copied for nothing.
 *
 * @example
 * ```ts
 * const caps = { elicitation: {} };
 * const info = { name: 'client', version: '1.0.0' };
 * const first = requestIdentity(undefined, '2026-07-28', caps, info); // first.sealed === false
 * const second = requestIdentity(first, '2026-07-28', caps, info); // second.sealed === true
 * requestIdentity(second, '2026-07-28', caps, info) === second; // true
 * ```
 */
export function requestIdentity(previous: RequestIdentity | undefined, version: string, capabilities: JsonObject, clientInfo: JsonObject | undefined): RequestIdentity {
  const same = previous !== undefined && previous.version === version && previous.declared.capabilities === capabilities && previous.declared.clientInfo === clientInfo;
  if (same && previous.sealed) return previous;
  const built: JsonObject = { [PROTOCOL_VERSION_META_KEY]: version, [CLIENT_CAPABILITIES_META_KEY]: capabilities };
  if (clientInfo !== undefined) built[CLIENT_INFO_META_KEY] = clientInfo;
  const meta = same ? sealJson(built) : built;
  return {
    version,
    capabilities: meta[CLIENT_CAPABILITIES_META_KEY] as JsonObject,
    clientInfo: meta[CLIENT_INFO_META_KEY] as JsonObject | undefined,
    meta,
    declared: { capabilities, clientInfo },
    sealed: same,
  };
}

/**
 * `message` with its `_meta` completed; the same object when there is nothing to add.
 *
 * @example
 * ```ts
 * stampRequestMeta({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, undefined, requestIdentity(undefined, '2026-07-28', {}, undefined));
 * // params._meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }
 * ```
 */
export function stampRequestMeta(message: JsonRpcRequest, progressToken: string | number | undefined, identity: RequestIdentity | undefined): JsonRpcRequest {
  if (progressToken === undefined && identity === undefined) return message;
  const params: JsonObject = message.params ?? {};
  const own = params._meta;
  // Nothing of the caller's own and no progress token: the identity's `_meta` as it is.
  const meta: JsonObject = progressToken === undefined && own === undefined && identity !== undefined ? identity.meta : isJsonObject(own) ? Object.assign({}, own) : {};
  if (identity !== undefined && meta !== identity.meta) {
    meta[PROTOCOL_VERSION_META_KEY] = identity.version;
    meta[CLIENT_CAPABILITIES_META_KEY] = identity.capabilities;
    if (identity.clientInfo !== undefined) meta[CLIENT_INFO_META_KEY] = identity.clientInfo;
  }
  if (progressToken !== undefined) meta.progressToken = progressToken;
  // The params copied with Object.assign and the member stored after: cheaper in memory and CPU
  // than the spread literal `{ ...params, _meta }` on every modern request. The message is a
  // literal of the four members a request has (JSON-RPC 2.0 §4, the only ones `outbound.ts`
  // writes): made in one step, where `Object.assign({}, message)` then a new `params` cost ≈4×
  // its time.
  const stampedParams: JsonObject = Object.assign({}, params);
  stampedParams._meta = meta;
  return { jsonrpc: '2.0', id: message.id, method: message.method, params: stampedParams };
}

/**
 * The version a request names in its own `_meta` (`io.modelcontextprotocol/protocolVersion`, MCP
 * 2026-07-28 basic/index §_meta), if any: the one reader of it, for the session, the HTTP
 * server's era routing and header check, and the HTTP client's routing headers.
 */
export function declaredVersionOf(params: unknown): string | undefined {
  if (!isJsonObject(params)) return undefined;
  const meta = params._meta;
  if (!isJsonObject(meta)) return undefined;
  const version = meta[PROTOCOL_VERSION_META_KEY];
  return typeof version === 'string' ? version : undefined;
}
