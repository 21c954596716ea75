/**
 * `@statemcp/stdio-transport`: MCP over stdio.
 *
 * - {@link StdioClientTransport} spawns a server, drains its stderr, and on `close()` shuts
 *   down its whole process tree (stdin → SIGTERM → SIGKILL).
 * - {@link StdioServerTransport} serves over this process's stdin/stdout and exits when the
 *   client goes away.
 * - {@link LineFramer} is the linear newline-delimited framing both use, exported for
 *   custom byte-stream transports (TCP, Unix sockets) that reuse stdio framing.
 */
export { StdioClientTransport } from './stdio-client-transport.js';
export type {
  StdioClientDiagnostic,
  StdioClientStatus,
  StdioClientTransportOptions,
  StdioStderrMode,
} from './stdio-client-options.js';
export type { StrayOutputMode } from './stray-output.js';

export { StdioServerTransport } from './stdio-server-transport.js';
export type { StdioServerStatus, StdioServerTransportOptions } from './stdio-server-transport.js';

export {
  DEFAULT_INHERITED_ENV_VARS_POSIX,
  DEFAULT_INHERITED_ENV_VARS_WIN32,
  buildChildEnvironment,
  getDefaultEnvironment,
} from './default-environment.js';
export type { DefaultEnvironmentOptions } from './default-environment.js';

export { DEFAULT_MAX_MESSAGE_SIZE, LineFramer, encodeFrame } from './line-framer.js';
export type { LineFramerHandlers, LineFramerOptions } from './line-framer.js';

export { DEFAULT_STDERR_TAIL_BYTES } from './tail-buffer.js';
export type { TreeSignal } from './process-tree.js';
