/**
 * @statemcp/server/logging — structured logging for a server: its own events to a `LogSink`
 * (pino, the console, or any logger behind one method), and `notifications/message` to clients
 * from the same logger, at the level each client asked for. Imports no logger.
 */
export { createServerLogging } from './server-logging.js';
export type { RequestLogger, RequestLogTarget, ServerLogging, ServerLoggingOptions } from './server-logging.js';
export { consoleSink, pinoSink } from './log-sink.js';
export type { LogSink, PinoLike } from './log-sink.js';
