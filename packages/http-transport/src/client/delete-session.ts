/**
 * The DELETE that ends a Streamable HTTP session on close (MCP 2025-11-25 basic/transports
 * §Session Management): best effort, bounded by
 * `closeTimeoutMs`; 405 (the server does not let clients end sessions), errors and slowness
 * are all tolerated, since the server reaps idle sessions anyway.
 */
import type { Clock } from '@statemcp/protocol';
import { buildHeaders } from './request-headers.js';
import type { StreamableHttpClientTransportOptions } from './streamable-http-options.js';
import { PROTOCOL_VERSION_HEADER, SESSION_ID_HEADER } from '@statemcp/protocol/internal';

export interface DeleteSessionRequest {
  readonly url: URL;
  readonly fetch: typeof fetch;
  readonly options: StreamableHttpClientTransportOptions;
  readonly clock: Clock;
  readonly sessionId: string;
  readonly protocolVersion: string | undefined;
}

export async function deleteHttpSession(request: DeleteSessionRequest): Promise<void> {
  const { options, clock } = request;
  const controller = new AbortController();
  const timer = clock.setTimeout(() => controller.abort(), options.closeTimeoutMs ?? 3000);
  try {
    const headers = await buildHeaders(options.headers, { [SESSION_ID_HEADER]: request.sessionId, [PROTOCOL_VERSION_HEADER]: request.protocolVersion });
    const response = await Promise.race([
      request.fetch(request.url.href, { ...options.requestInit, method: 'DELETE', headers, signal: controller.signal }),
      new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(new Error('DELETE timed out')), { once: true });
      }),
    ]);
    await response.body?.cancel().catch(() => undefined);
  } catch {
    // Best effort.
  } finally {
    clock.clearTimeout(timer);
  }
}
