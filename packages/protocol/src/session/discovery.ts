/**
 * The modern era's way in (2026-07-28, Lifecycle: discovery): a client sends `server/discover` at the
 * newest modern version it speaks, and reports what the answer means to the connection
 * machine — `discovered` (Operating at a mutual version) or `discoveryFailed` (with `fallBack`
 * when the server looks legacy, so the `initialize` handshake runs next). Like the handshake,
 * it decides no lifecycle itself.
 *
 * How the answer is read:
 * - a `DiscoverResult` → modern, at our version if the server lists it, else at the newest
 *   mutual modern version (a server listing only legacy versions is legacy);
 * - -32022 with `data.supported` → modern: discover again at a mutual modern version, else the
 *   handshake at a mutual legacy version, else `UnsupportedProtocolVersionError`;
 * - -32020 / -32021 → a modern server refused us: no fallback;
 * - the caller cancelled, or the connection closed → no fallback;
 * - anything else (another error code, an HTTP refusal without a modern body, no answer in
 *   time) → legacy. The fallback is never keyed to one error code (2026-07-28, Transports:
 *   backwards compatibility).
 *
 * When the era is decided:
 * - `auto` with `protocolVersion` pinned to a handshake revision, or no modern version in
 *   `supportedVersions`: the handshake at once, no discovery;
 * - no modern-era fallback target (only 2026-07-28 allowed): discovery that never falls back;
 * - "in time" is `discoveryTimeoutMs`, except on a transport whose peer answers every request
 *   or closes (`Transport.answersUntilClosed`, stdio): there a late answer would meet a server
 *   that already went modern, so discovery waits for it (bounded by the connect timeout).
 *
 * The connect timeout (`timeoutMs` of the negotiation) bounds the whole negotiation, not each
 * request: discovery gets all of it, the fallback handshake what is left. A discovery that
 * timed out after the whole connect timeout has nothing left to fall back with, so it fails
 * with its `RequestTimeoutError`. An authorization pause restarts the budget in full, as it
 * restarts every pending request's timeout (`TransportSink.onAuthorizing`).
 */
import { ConnectionClosedError, JsonRpcError, RequestCancelledError, RequestTimeoutError, UnsupportedProtocolVersionError } from '../errors/errors.js';
import { ErrorCode, isJsonObject, type JsonObject } from '../jsonrpc/messages.js';
import type { CloseReason, ConnectionEvent, PeerInfo } from '../machines/connection-types.js';
import { SERVER_INFO_META_KEY } from '../revisions/blocks/modern.js';
import { eraOf } from '../versions.js';
import type { Revision } from '../revisions/types.js';
import type { InitializeParams, InitializeResultShape, RequestOptions } from './options.js';

const DEFAULT_DISCOVERY_TIMEOUT_MS = 10_000;

/** Which era a client may use: `auto` prefers the modern one and falls back to the handshake. */
export type EraPreference = 'auto' | 'modern' | 'legacy';

/** What `server/discover` answers (2026-07-28, schema `DiscoverResult`). */
export interface DiscoverResultShape {
  resultType: 'complete';
  supportedVersions: string[];
  capabilities: JsonObject;
  instructions?: string;
  ttlMs: number;
  cacheScope: 'public' | 'private';
  _meta?: JsonObject;
  [key: string]: unknown;
}

/** What discovery came to. `legacy.version`: a mutual legacy version a -32022 named, for the handshake. */
export type DiscoveryOutcome =
  | { readonly kind: 'modern'; readonly version: string; readonly result: DiscoverResultShape }
  | { readonly kind: 'legacy'; readonly version: string | undefined }
  | { readonly kind: 'failed'; readonly error: Error };

/** Options of `Session.negotiate`: a request's options plus the era to use. */
export interface NegotiateOptions extends RequestOptions {
  /** `auto` (default): discover, fall back to the handshake on a legacy server; `modern`: never fall back; `legacy`: handshake only. */
  readonly era?: EraPreference;
}

/** What `Session.negotiate` agreed on: the era, and the server's answer in it. */
export type NegotiateOutcome =
  | { readonly era: 'legacy'; readonly result: InitializeResultShape }
  | { readonly era: 'modern'; readonly result: DiscoverResultShape };

/** What negotiation and discovery need from their session. */
export interface NegotiationHost {
  /** Every version this side speaks, both eras. */
  readonly supported: readonly string[];
  useRevision(version: string): Revision;
  dispatch(event: ConnectionEvent): void;
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject>;
  readonly discoveryTimeoutMs: number | undefined;
  /** The transport's peer answers or closes (`Transport.answersUntilClosed`): discovery is not timed out by `discoveryTimeoutMs`. */
  readonly discoveryAwaitsAnswer: boolean;
  /** Resolves when the session reached Terminated. */
  readonly closed: Promise<unknown>;
  /** The session clock's time, ms. */
  now(): number;
  /** When an authorization last ended and restarted the pending timeouts (`-Infinity` if none has). */
  readonly timeoutsRestartedAt: number;
  initialize(params: InitializeParams, options: RequestOptions): Promise<InitializeResultShape>;
}

/**
 * Client: discovery first unless the era is `legacy`, then the handshake when the server is
 * legacy. A failed discovery rejects once the session has terminated.
 */
export async function negotiateEra(host: NegotiationHost, params: InitializeParams, options: NegotiateOptions): Promise<NegotiateOutcome> {
  const { era = 'auto', ...requestOptions } = options;
  let handshakeParams = params;
  let handshakeOptions: RequestOptions = requestOptions;
  // A version pinned for the handshake (`protocolVersion` of a revision with one) means the legacy era: no discovery.
  const pinnedLegacy = params.protocolVersion !== undefined && handshakeOf(params.protocolVersion);
  if (era === 'modern' || (era === 'auto' && !pinnedLegacy)) {
    const budget = requestOptions.timeoutMs;
    const started = host.now();
    const timeoutMs = budget ?? (host.discoveryAwaitsAnswer ? undefined : (host.discoveryTimeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS));
    const discoveryOptions = timeoutMs === undefined ? requestOptions : { ...requestOptions, timeoutMs };
    const discovery = await runClientDiscovery(host, era, discoveryOptions, params.protocolVersion, budget !== undefined);
    if (discovery.kind === 'failed') {
      await host.closed;
      throw discovery.error;
    }
    if (discovery.kind === 'modern') return { era: 'modern', result: discovery.result };
    if (discovery.version !== undefined) handshakeParams = { ...params, protocolVersion: discovery.version };
    else if (params.protocolVersion !== undefined && !handshakeOf(params.protocolVersion)) {
      // A modern version was pinned and the server is legacy: the handshake proposes the newest legacy version.
      const { protocolVersion: _modern, ...rest } = params;
      handshakeParams = rest;
    }
    if (budget !== undefined && budget !== Infinity) {
      // What discovery left of the connect timeout (at least 1 ms: the handshake then times out through the ledger).
      const spent = host.now() - Math.max(started, host.timeoutsRestartedAt);
      handshakeOptions = { ...requestOptions, timeoutMs: Math.max(1, budget - spent) };
    }
  }
  return { era: 'legacy', result: await host.initialize(handshakeParams, handshakeOptions) };
}

/** Codes only a modern server sends: after one of them there is no fallback (2026-07-28, Transports: backwards compatibility). */
const MODERN_REFUSALS: ReadonlySet<number> = new Set([ErrorCode.HeaderMismatch, ErrorCode.MissingRequiredClientCapability]);

/**
 * Runs discovery through the ledger (visible, timed, cancellable) and reports to the machine.
 * `era: 'modern'` never falls back. Returns `legacy` without touching the machine when this
 * side speaks no modern version. `timedByConnect`: `options.timeoutMs` is the whole connect
 * timeout, so a discovery that timed out leaves no time for a fallback.
 */
export async function runClientDiscovery(host: NegotiationHost, era: 'auto' | 'modern', options: RequestOptions, pinned?: string, timedByConnect = false): Promise<DiscoveryOutcome> {
  const modern = newestFirst(host.supported.filter((version) => !handshakeOf(version)));
  const legacy = newestFirst(host.supported.filter(handshakeOf));
  const fail = (error: Error, reason: CloseReason): DiscoveryOutcome => {
    host.dispatch({ type: 'discoveryFailed', fallBack: false, reason, error });
    return { kind: 'failed', error };
  };
  const fallBack = (error: Error, version?: string): DiscoveryOutcome => {
    if (era === 'modern' || legacy.length === 0) return fail(error, 'initializeFailed');
    host.dispatch({ type: 'discoveryFailed', fallBack: true, reason: 'initializeFailed', error });
    return { kind: 'legacy', version };
  };
  let proposed = pinned !== undefined && modern.includes(pinned) ? pinned : modern[0];
  if (proposed === undefined) return { kind: 'legacy', version: undefined };
  // Each version is tried at most twice: a -32022 that names the version just sent may be a transient refusal.
  const tried = new Map<string, number>();
  for (;;) {
    tried.set(proposed, (tried.get(proposed) ?? 0) + 1);
    host.useRevision(proposed);
    let result: DiscoverResultShape;
    try {
      result = (await host.request('server/discover', {}, options)) as DiscoverResultShape;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      if (failure instanceof JsonRpcError && failure.code === ErrorCode.UnsupportedProtocolVersion) {
        const supported = supportedOf(failure.data);
        const next = modern.find((version) => supported.includes(version) && (tried.get(version) ?? 0) < 2);
        if (next !== undefined) {
          proposed = next;
          continue;
        }
        const mutualLegacy = legacy.find((version) => supported.includes(version));
        if (mutualLegacy !== undefined && era === 'auto') return fallBack(failure, mutualLegacy);
        return fail(new UnsupportedProtocolVersionError(proposed, supported, { cause: failure }), 'versionMismatch');
      }
      if (failure instanceof JsonRpcError && MODERN_REFUSALS.has(failure.code)) return fail(failure, 'initializeFailed');
      if (failure instanceof RequestCancelledError || failure instanceof ConnectionClosedError) return fail(failure, 'initializeFailed');
      if (timedByConnect && failure instanceof RequestTimeoutError) return fail(failure, 'initializeFailed');
      return fallBack(failure);
    }
    const offered = result.supportedVersions;
    const version = offered.includes(proposed) ? proposed : modern.find((candidate) => offered.includes(candidate));
    if (version === undefined) {
      const mutualLegacy = legacy.find((candidate) => offered.includes(candidate));
      const error = new UnsupportedProtocolVersionError(offered[0] ?? '', host.supported);
      return mutualLegacy !== undefined ? fallBack(error, mutualLegacy) : fail(error, 'versionMismatch');
    }
    host.useRevision(version);
    host.dispatch({ type: 'discovered', version, peer: peerOf(result) });
    return { kind: 'modern', version, result };
  }
}

/** What the client learns about a modern server: its capabilities, its self-reported info, its instructions. */
function peerOf(result: DiscoverResultShape): PeerInfo {
  const meta = result._meta;
  // `_meta` is where 2026-07-28 puts it; drafts before it had a top-level `serverInfo`.
  const reported = (isJsonObject(meta) ? meta[SERVER_INFO_META_KEY] : undefined) ?? result.serverInfo;
  const info =
    isJsonObject(reported) && typeof reported.name === 'string' && typeof reported.version === 'string'
      ? (reported as PeerInfo['info'])
      : { name: 'unknown', version: 'unknown' };
  return typeof result.instructions === 'string'
    ? { capabilities: result.capabilities, info, instructions: result.instructions }
    : { capabilities: result.capabilities, info };
}

/** Whether `version` is of the handshake era (`eraOf`: an unknown version counts as one, it can only be proposed in `initialize`). */
function handshakeOf(version: string): boolean {
  return eraOf(version) === 'legacy';
}

function supportedOf(data: unknown): string[] {
  if (!isJsonObject(data) || !Array.isArray(data.supported)) return [];
  return data.supported.filter((version): version is string => typeof version === 'string');
}

function newestFirst(versions: readonly string[]): string[] {
  return [...versions].sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
}
