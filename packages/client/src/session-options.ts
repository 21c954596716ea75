/**
 * Translates the client's options into the options of the session runner it drives, and a
 * call's options into the runner's per-request options. Only the keys that were set are
 * passed, so the runner's own defaults apply to the rest.
 */
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, type CustomMethodTable, type HandlerLookup, type RequestOptions, type SessionOptions } from '@statemcp/protocol';
import type { CallOptions, ClientOptions } from './options.js';
import type { ClientCapabilities } from './types.js';

/** The options of the client-role `Session` behind a `Client`; `capabilities` is read at each use, `handlers` is the client's table. */
export function sessionOptions(options: ClientOptions, capabilities: () => ClientCapabilities, customMethods: CustomMethodTable, handlers: HandlerLookup): SessionOptions {
  const o = options;
  return {
    role: 'client',
    capabilities,
    customMethods,
    handlers,
    ...(o.supportedVersions !== undefined
      ? { supportedVersions: o.supportedVersions }
      : (o.era ?? 'auto') !== 'legacy'
        ? { supportedVersions: [...LEGACY_PROTOCOL_VERSIONS, ...MODERN_PROTOCOL_VERSIONS] }
        : {}),
    ...(o.maxInputRounds !== undefined ? { maxInputRounds: o.maxInputRounds } : {}),
    ...(o.discoveryTimeoutMs !== undefined ? { discoveryTimeoutMs: o.discoveryTimeoutMs } : {}),
    ...(o.clock !== undefined ? { clock: o.clock } : {}),
    ...(o.defaultTimeoutMs !== undefined ? { defaultTimeoutMs: o.defaultTimeoutMs } : {}),
    ...(o.maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs: o.maxTotalTimeoutMs } : {}),
    ...(o.resetTimeoutOnProgress !== undefined ? { resetTimeoutOnProgress: o.resetTimeoutOnProgress } : {}),
    ...(o.strictCapabilities !== undefined ? { strictCapabilities: o.strictCapabilities } : {}),
    ...(o.closeDeadlineMs !== undefined ? { closeDeadlineMs: o.closeDeadlineMs } : {}),
    ...(o.inspect !== undefined ? { inspect: o.inspect } : {}),
    ...(o.onclose !== undefined ? { onclose: o.onclose } : {}),
    ...(o.traceContext !== undefined ? { traceContext: o.traceContext } : {}),
  };
}

/**
 * The runner's options for one call (drops client-only keys such as `validateOutput`), added
 * to `into`: a fresh object the caller owns and may have filled with runner-only keys.
 */
export function requestOptions(options: CallOptions, into: Writable<RequestOptions> = {}): RequestOptions {
  const { timeoutMs, maxTotalTimeoutMs, resetTimeoutOnProgress, signal, onProgress, traceContext } = options;
  if (timeoutMs !== undefined) into.timeoutMs = timeoutMs;
  if (maxTotalTimeoutMs !== undefined) into.maxTotalTimeoutMs = maxTotalTimeoutMs;
  if (resetTimeoutOnProgress !== undefined) into.resetTimeoutOnProgress = resetTimeoutOnProgress;
  if (signal !== undefined) into.signal = signal;
  if (onProgress !== undefined) into.onProgress = onProgress;
  if (traceContext !== undefined) into.traceContext = traceContext;
  return into;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
