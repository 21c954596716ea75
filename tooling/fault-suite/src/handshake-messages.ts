/** The handshake frames the suite's raw peers (stdio and HTTP) send. */
import type { RequestId } from '@statemcp/protocol';

/** The revision the raw peers negotiate: 2025-11-25 (no JSON-RPC batching). */
export const PROTOCOL_VERSION = '2025-11-25';

/** The `initialize` request of the suite's raw peers (2025-11-25, no client capabilities). */
export function initializeRequest(id: RequestId): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'statemcp-fault-suite', version: '1.0.0' } },
  };
}

export const INITIALIZED_NOTIFICATION = { jsonrpc: '2.0', method: 'notifications/initialized' } as const;
