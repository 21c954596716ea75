/**
 * The fallback to the legacy HTTP+SSE transport (MCP 2025-11-25 basic/transports §Backwards
 * Compatibility, MCP 2026-07-28 basic/versioning §Backward Compatibility): when a server refuses
 * the `initialize` POST with 400/404/405 and its body is no modern-era error, the client opens
 * the legacy SSE stream (the same URL, or `legacyFallback.url`) and carries on over it.
 */
import { TransportError, type TransportCloseInfo, type TransportSink } from '@statemcp/protocol';
import { briefly } from './http-errors.js';
import { SseClientTransport } from './sse-client.js';
import type { StreamableHttpClientTransportOptions } from './streamable-http-options.js';

/** Starts the legacy transport delivering to `sink`; rejects naming both refusals when it cannot. */
export async function startLegacyFallback(
  url: URL,
  options: StreamableHttpClientTransportOptions,
  sink: TransportSink,
  refusal: Error,
  onClose: (info: TransportCloseInfo) => void,
): Promise<SseClientTransport> {
  const fallback = options.legacyFallback;
  const legacyUrl = typeof fallback === 'object' ? new URL(fallback.url, url) : url;
  const legacy = new SseClientTransport(legacyUrl, {
    ...(options.fetch !== undefined && { fetch: options.fetch }),
    ...(options.headers !== undefined && { headers: options.headers }),
    ...(options.requestInit !== undefined && { requestInit: options.requestInit }),
    ...(options.clock !== undefined && { clock: options.clock }),
  });
  try {
    await legacy.start({
      onMessage: (value, context) => sink.onMessage(value, context),
      onMalformed: (text, reason) => sink.onMalformed?.(text, reason),
      onError: (error) => sink.onError?.(error),
      onClose,
    });
  } catch (error) {
    throw new TransportError(`initialize was refused (${refusal.message}) and the legacy HTTP+SSE fallback failed too (${briefly(error)})`, { cause: error });
  }
  return legacy;
}
