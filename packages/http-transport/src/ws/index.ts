/**
 * `@statemcp/http-transport/ws`: MCP over WebSocket — a **custom transport, not part of the
 * MCP specification**. One JSON-RPC message per text frame, subprotocol `mcp`, a bounded
 * closing handshake. Requires the optional peer dependency `ws`; the package's main entry
 * never imports it.
 */
export { WebSocketClientTransport, WebSocketServerTransport } from './websocket-transport.js';
export type { WebSocketClientTransportOptions, WebSocketServerTransportOptions, WebSocketTransportOptions } from './websocket-transport.js';
export { checkUpgradeRequest, createWebSocketServer } from './websocket-server.js';
export type { WebSocketMcpServer, WebSocketServerOptions } from './websocket-server.js';
export {
  DEFAULT_WEBSOCKET_CLOSE_TIMEOUT_MS,
  DEFAULT_WEBSOCKET_MAX_PAYLOAD,
  MCP_WEBSOCKET_SUBPROTOCOL,
} from './websocket-channel.js';
