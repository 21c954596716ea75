/**
 * Translates the client's options into the options of the session runner it drives, and a
 * call's options into the runner's per-request options. Only the keys that were set are
 * passed, so the runner's own defaults apply to the rest.
 */
import {
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  type HandlerLookup,
  type MiddlewareStack,
  type RequestOptions,
  type SessionOptions,
  type CustomMethodTable,
} from '@statemcp/protocol';
import type { CallOptions, ClientOptions } from './options.js';
import type { ClientCapabilities } from './types.js';

/** Every revision this client speaks in the `auto` and `modern` eras: one array, so the runner's per-list tables are built once. */
const DUAL_ERA_VERSIONS: readonly string[] = Object.freeze([...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS]);

/** The options of the client-role `Session` behind a `Client`; `capabilities` is read at each use, `handlers` is the client's table, `middleware` its stack. */
export function sessionOptions(options: ClientOptions, capabilities: () => ClientCapabilities, customMethods: CustomMethodTable, handlers: HandlerLookup, middleware?: MiddlewareStack): SessionOptions {
  const o = options;
  // One object, written key by key (a spread per option built a throw-away object each, per connection).
  const into: Writable<SessionOptions> = { role: 'client', capabilities, customMethods, handlers };
  if (middleware !== undefined) into.middleware = middleware;
  if (o.supportedVersions !== undefined) into.supportedVersions = o.supportedVersions;
  else if ((o.era ?? 'auto') !== 'legacy') into.supportedVersions = DUAL_ERA_VERSIONS;
  if (o.maxInputRounds !== undefined) into.maxInputRounds = o.maxInputRounds;
  if (o.concurrentInputs !== undefined) into.concurrentInputs = o.concurrentInputs;
  if (o.discoveryTimeoutMs !== undefined) into.discoveryTimeoutMs = o.discoveryTimeoutMs;
  if (o.clock !== undefined) into.clock = o.clock;
  if (o.defaultTimeoutMs !== undefined) into.defaultTimeoutMs = o.defaultTimeoutMs;
  if (o.maxTotalTimeoutMs !== undefined) into.maxTotalTimeoutMs = o.maxTotalTimeoutMs;
  if (o.resetTimeoutOnProgress !== undefined) into.resetTimeoutOnProgress = o.resetTimeoutOnProgress;
  if (o.strictCapabilities !== undefined) into.strictCapabilities = o.strictCapabilities;
  if (o.closeDeadlineMs !== undefined) into.closeDeadlineMs = o.closeDeadlineMs;
  if (o.inspect !== undefined) into.inspect = o.inspect;
  if (o.onclose !== undefined) into.onclose = o.onclose;
  if (o.traceContext !== undefined) into.traceContext = o.traceContext;
  return into;
}

/** The runner's options of a call that sets none: read only, shared. */
const NO_REQUEST_OPTIONS: RequestOptions = Object.freeze({});

/** The runner's options of a call that waits for the handshake and sets nothing else: read only, shared. */
export const WAIT_FOR_OPERATING: RequestOptions = Object.freeze({ waitForOperating: true });

/**
 * The runner's options for one call (drops client-only keys such as `validateOutput`) over
 * `base` (runner-only keys): `base` itself when the call sets none of them, so that a shared
 * `base` costs a call no object; otherwise a copy of `base` with them.
 */
export function requestOptions(options: CallOptions, base: RequestOptions = NO_REQUEST_OPTIONS): RequestOptions {
  const { timeoutMs, maxTotalTimeoutMs, resetTimeoutOnProgress, signal, onProgress, traceContext } = options;
  if (timeoutMs === undefined && maxTotalTimeoutMs === undefined && resetTimeoutOnProgress === undefined && signal === undefined && onProgress === undefined && traceContext === undefined) {
    return base;
  }
  const into: Writable<RequestOptions> = Object.assign({}, base);
  if (timeoutMs !== undefined) into.timeoutMs = timeoutMs;
  if (maxTotalTimeoutMs !== undefined) into.maxTotalTimeoutMs = maxTotalTimeoutMs;
  if (resetTimeoutOnProgress !== undefined) into.resetTimeoutOnProgress = resetTimeoutOnProgress;
  if (signal !== undefined) into.signal = signal;
  if (onProgress !== undefined) into.onProgress = onProgress;
  if (traceContext !== undefined) into.traceContext = traceContext;
  return into;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
