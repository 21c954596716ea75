/**
 * Translates the client's options into the options of the session runner it drives, and a
 * call's options into the runner's per-request options. Only the keys that were set are
 * passed, so the runner's own defaults apply to the rest.
 */
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS, type CustomMethodTable, type RequestOptions, type SessionOptions } from '@statemcp/protocol';
import type { CallOptions, ClientOptions } from './options.js';
import type { ClientCapabilities } from './types.js';

/** The options of the client-role `Session` behind a `Client`; `capabilities` is read at each use. */
export function sessionOptions(options: ClientOptions, capabilities: () => ClientCapabilities, customMethods: CustomMethodTable): SessionOptions {
  const o = options;
  return {
    role: 'client',
    capabilities,
    customMethods,
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

/** The runner's options for one call (drops client-only keys such as `validateOutput`). */
export function requestOptions(options: CallOptions): RequestOptions {
  const { timeoutMs, maxTotalTimeoutMs, resetTimeoutOnProgress, signal, onProgress, traceContext } = options;
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(maxTotalTimeoutMs !== undefined ? { maxTotalTimeoutMs } : {}),
    ...(resetTimeoutOnProgress !== undefined ? { resetTimeoutOnProgress } : {}),
    ...(signal !== undefined ? { signal } : {}),
    ...(onProgress !== undefined ? { onProgress } : {}),
    ...(traceContext !== undefined ? { traceContext } : {}),
  };
}
