/**
 * The `requestState` of a Multi Round-Trip round (2026-07-28, MCP 2026-07-28 basic/patterns/mrtr),
 * sealed so the
 * client can only echo it. The state is attacker-controlled on the way back, and it carries
 * the answers of earlier rounds, so it is integrity-protected with HMAC-SHA256 over Web
 * Crypto (`globalThis.crypto.subtle`, present on Node ≥ 20, Bun, Deno and workerd; nothing
 * is imported from Node) and bound to the request it belongs to: the method, a SHA-256
 * digest of the params (without `inputResponses`, `requestState` and `_meta`, which change
 * from round to round) and an expiry. A state that fails any check is refused with -32602.
 *
 * ```
 * requestState = base64url(JSON payload) "." base64url(HMAC-SHA256(key, first part))
 * payload      = { v: 1, m: method, d: params digest, x: expires at (ms since epoch), a: answers, p?: principal digest }
 * ```
 *
 * When the request came through an authorization layer (`extra.auth`), the state is also bound
 * to that principal (the digest of its issuer, subject and OAuth client — not the token, which
 * may be refreshed between rounds): a state minted for one principal is refused with -32602 when
 * another presents it, and so is a state minted without one when a principal presents it (and
 * the other way round).
 *
 * The key is random per process unless given: servers behind a load balancer (any instance
 * may receive the retry) must share one key, or a retry that lands elsewhere is refused.
 */
import { ErrorCode, JsonRpcError, isJsonObject, type JsonObject } from '@statemcp/protocol';

/** How `requestState` is sealed (`ServerOptions.requestState`). */
export interface RequestStateOptions {
  /**
   * The HMAC key: at least 32 bytes (a string is taken as UTF-8). Default: 32 random bytes per
   * process. Every instance of a cluster must use the same key.
   */
  readonly key?: string | Uint8Array;
  /** How long a round's state stays valid, ms (default 600 000: ten minutes). */
  readonly ttlMs?: number;
  /** The wall clock for the expiry, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
}

/** Default lifetime of a round's `requestState`. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 600_000;

const MIN_KEY_BYTES = 32;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError('not base64url');
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** JSON with object keys sorted, so equal params give equal digests whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The params a state is bound to: everything but the round's own fields and `_meta`. */
export function boundParams(params: JsonObject): JsonObject {
  const { inputResponses: _r, requestState: _s, _meta: _m, ...rest } = params;
  return rest;
}

function invalidState(reason: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.InvalidParams, `Invalid requestState: ${reason}`);
}

/** Seals and opens the `requestState` of one server (one key for all its connections). */
export class RequestStateSealer {
  readonly #ttlMs: number;
  readonly #now: () => number;
  /** The given key; undefined: a random one, drawn at the first seal or open. */
  readonly #keyBytes: Uint8Array | undefined;
  #key: Promise<CryptoKeyLike> | undefined;

  constructor(options: RequestStateOptions = {}) {
    const ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    if (!Number.isInteger(ttlMs) || ttlMs <= 0) throw new RangeError(`requestState ttlMs must be a positive integer, got ${ttlMs}`);
    this.#ttlMs = ttlMs;
    this.#now = options.now ?? Date.now;
    const given = options.key;
    const bytes = typeof given === 'string' ? encoder.encode(given) : given;
    if (bytes !== undefined && bytes.length < MIN_KEY_BYTES) throw new RangeError(`requestState key must be at least ${MIN_KEY_BYTES} bytes, got ${bytes.length}`);
    // Nothing is drawn here: the first read of `globalThis.crypto` loads Node's Web Crypto
    // module, which would slow every server's start-up although most never seal a state.
    this.#keyBytes = bytes;
  }

  /** A sealed state for `method` with these params, carrying `answers`, bound to `principal` when given. */
  async seal(method: string, params: JsonObject, answers: JsonObject, principal?: JsonObject): Promise<string> {
    const payload: JsonObject = { v: 1, m: method, d: await this.#digest(params), x: this.#now() + this.#ttlMs, a: answers };
    if (principal !== undefined) payload.p = await this.#hash(principal);
    const body = toBase64Url(encoder.encode(JSON.stringify(payload)));
    const mac = await globalThis.crypto.subtle.sign('HMAC', await this.#hmacKey(), encoder.encode(body));
    return `${body}.${toBase64Url(new Uint8Array(mac))}`;
  }

  /**
   * The answers inside `state`, after checking its signature, its expiry and that it belongs
   * to `method` with these params and to `principal` (or to none, as sealed); a -32602
   * `JsonRpcError` otherwise.
   */
  async open(state: string, method: string, params: JsonObject, principal?: JsonObject): Promise<JsonObject> {
    const parts = state.split('.');
    const [body, mac] = parts;
    if (parts.length !== 2 || body === undefined || mac === undefined) throw invalidState('malformed');
    let signature: Uint8Array;
    try {
      signature = fromBase64Url(mac);
    } catch {
      throw invalidState('malformed');
    }
    const valid = await globalThis.crypto.subtle.verify('HMAC', await this.#hmacKey(), signature, encoder.encode(body));
    if (!valid) throw invalidState('integrity check failed');
    let payload: unknown;
    try {
      payload = JSON.parse(decoder.decode(fromBase64Url(body))) as unknown;
    } catch {
      throw invalidState('malformed');
    }
    if (!isJsonObject(payload) || payload.v !== 1 || typeof payload.x !== 'number' || !isJsonObject(payload.a)) throw invalidState('malformed');
    if (payload.x <= this.#now()) throw invalidState('expired');
    if (payload.m !== method) throw invalidState(`issued for ${String(payload.m)}, not ${method}`);
    if (payload.d !== (await this.#digest(params))) throw invalidState('issued for other params');
    if (payload.p !== (principal === undefined ? undefined : await this.#hash(principal))) throw invalidState('issued for another principal');
    return payload.a;
  }

  #digest(params: JsonObject): Promise<string> {
    return this.#hash(boundParams(params));
  }

  async #hash(value: JsonObject): Promise<string> {
    const hash = await globalThis.crypto.subtle.digest('SHA-256', encoder.encode(canonicalJson(value)));
    return toBase64Url(new Uint8Array(hash));
  }

  #hmacKey(): Promise<CryptoKeyLike> {
    this.#key ??= globalThis.crypto.subtle.importKey('raw', this.#keyBytes ?? globalThis.crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES)), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    return this.#key;
  }
}

type CryptoKeyLike = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;
