/**
 * The structured-logging interface the server logs through: one method, MCP's eight levels
 * (RFC 5424 severities, as `notifications/message` uses them), a message and its fields. Small
 * enough to write for any logger; `pinoSink` and `consoleSink` are two.
 */
import type { LoggingLevel } from '../wire-types.js';

/** Where the server's own log lines go. */
export interface LogSink {
  /** One line: `fields` are structured (no message text in them), `message` is for people. */
  log(level: LoggingLevel, fields: Readonly<Record<string, unknown>>, message: string): void;
}

/** The part of a pino logger (https://getpino.io) `pinoSink` calls: `logger.info(obj, msg)` and its siblings. */
export interface PinoLike {
  /** Logs at `debug`: `fields` merged into the record, then the message. */
  debug(fields: object, message: string): void;
  /** Logs at `info`. */
  info(fields: object, message: string): void;
  /** Logs at `warn`. */
  warn(fields: object, message: string): void;
  /** Logs at `error`. */
  error(fields: object, message: string): void;
  /** Logs at `fatal`. */
  fatal(fields: object, message: string): void;
}

/**
 * A sink writing to a pino logger you created (`pino()`), so this package imports no logger:
 * `debug` → debug, `info` and `notice` → info, `warning` → warn, `error` → error, `critical`,
 * `alert` and `emergency` → fatal. The MCP level is kept in the line as `mcpLevel`.
 *
 * @example
 * ```ts
 * import pino from 'pino';
 * const logging = createServerLogging({ sink: pinoSink(pino()) });
 * ```
 */
export function pinoSink(logger: PinoLike): LogSink {
  return {
    log(level, fields, message) {
      const line = { ...fields, mcpLevel: level };
      switch (level) {
        case 'debug':
          return logger.debug(line, message);
        case 'info':
        case 'notice':
          return logger.info(line, message);
        case 'warning':
          return logger.warn(line, message);
        case 'error':
          return logger.error(line, message);
        case 'critical':
        case 'alert':
        case 'emergency':
          return logger.fatal(line, message);
      }
    },
  };
}

/** A sink writing one JSON line per entry to `write` (default: standard error, which stdio servers keep free of protocol). */
export function consoleSink(write: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): LogSink {
  return {
    log(level, fields, message) {
      write(JSON.stringify({ level, message, ...fields }));
    },
  };
}
