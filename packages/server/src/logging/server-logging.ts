/**
 * The server's own structured log, and `notifications/message` from the same logger. A
 * middleware writes the server's events to a `LogSink` — each connection (opened on its first
 * message, closed when its session terminates, read from the `statemcp:session.transition`
 * diagnostics channel), each request (method, target, duration, principal; errors with their
 * category and code) — and `forRequest(extra)` gives a handler a logger whose lines go both to
 * the sink and, as `notifications/message`, to the client at the level the client asked for:
 * `logging/setLevel` in the legacy era, the request's `_meta["io.modelcontextprotocol/logLevel"]`
 * from 2026-07-28 (MCP 2026-07-28, Logging).
 */
import {
  categoryOf,
  systemClock,
  type Clock,
  type InspectEvent,
  type JsonObject,
  type Middleware,
  type MiddlewareContext,
  type RequestId,
} from '@statemcp/protocol';
import { toWireError } from '@statemcp/protocol/internal';
import { principalOf } from '@statemcp/server';
import { passesLevel, targetOf } from '@statemcp/server/internal';
import type { LoggingLevel } from '../wire-types.js';
import type { LogSink } from './log-sink.js';

/** Options of {@link createServerLogging}. */
export interface ServerLoggingOptions {
  readonly sink: LogSink;
  /** The least severe level written to the sink (default `info`). Clients choose their own level. */
  readonly level?: LoggingLevel;
  /** The `logger` name of the `notifications/message` a request logger sends (default none). */
  readonly name?: string;
  /** Time source for durations (default the system clock). */
  readonly clock?: Pick<Clock, 'now'>;
}

/** What a request logger needs from a handler's `extra` (`RequestExtra` has both). */
export interface RequestLogTarget {
  readonly requestId: RequestId;
  /** Sends `notifications/message` when the client's level lets it through (`RequestExtra.log`). */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<boolean>;
}

/** Logs for one request: each line to the server's sink and to the client. */
export type RequestLogger = Readonly<Record<LoggingLevel, (message: string, fields?: Readonly<Record<string, unknown>>) => Promise<void>>>;

/** See {@link createServerLogging}. */
export interface ServerLogging {
  /** Register with `server.use()`: logs connections and requests. */
  readonly middleware: Middleware;
  /** Writes a server event to the sink (when `level` passes the sink's threshold). */
  log(level: LoggingLevel, message: string, fields?: Readonly<Record<string, unknown>>): void;
  /** A logger for the request `extra` belongs to (see the module comment). */
  forRequest(extra: RequestLogTarget): RequestLogger;
  /** Stops following session transitions (no more "connection closed" lines). Idempotent. */
  close(): void;
}

/** Methods whose completion is logged at `info` (the work a server is for); the rest at `debug`. */
const WORK_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read', 'completion/complete']);
const LEVELS: readonly LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];
/** Connections followed at most; the oldest is forgotten past it. */
const MAX_CONNECTIONS = 10_000;
const SESSION_TRANSITION = 'statemcp:session.transition';

interface DiagnosticsChannels {
  subscribe(name: string, onMessage: (message: unknown) => void): void;
  unsubscribe(name: string, onMessage: (message: unknown) => void): void;
}

/** `node:diagnostics_channel`, or `undefined` where absent or refused (Next.js's Edge runtime throws on `getBuiltinModule`). */
function builtinDiagnosticsChannels(): DiagnosticsChannels | undefined {
  try {
    return (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:diagnostics_channel') as DiagnosticsChannels | undefined;
  } catch {
    return undefined;
  }
}

/**
 * Structured logging for a server.
 *
 * @example
 * ```ts
 * const logging = createServerLogging({ sink: pinoSink(pino()), name: 'weather' });
 * server.use(logging.middleware);
 * server.registerTool('forecast', {}, async (_args, extra) => {
 *   await logging.forRequest(extra).info('looking up the forecast', { city: 'Lisbon' });
 *   return { content: [{ type: 'text', text: 'Sunny' }] };
 * });
 * ```
 */
export function createServerLogging(options: ServerLoggingOptions): ServerLogging {
  const { sink, name } = options;
  const threshold = options.level ?? 'info';
  const clock = options.clock ?? systemClock;
  const connections = new Map<string, number>();
  const channels = builtinDiagnosticsChannels();
  let following = false;

  const write = (level: LoggingLevel, message: string, fields: Readonly<Record<string, unknown>>): void => {
    if (!passesLevel(level, threshold)) return;
    try {
      sink.log(level, fields, message);
    } catch {
      // A sink that throws loses its line; the server goes on.
    }
  };

  const onTransition = (message: unknown): void => {
    const event = message as InspectEvent;
    if (event.type !== 'session.transition' || event.to !== 'terminated') return;
    const opened = connections.get(event.sessionId);
    if (opened === undefined) return;
    connections.delete(event.sessionId);
    write(event.event === 'fatalError' ? 'error' : 'info', 'connection closed', { sessionId: event.sessionId, durationMs: clock.now() - opened, reason: event.event });
  };

  const opened = (context: MiddlewareContext): void => {
    if (connections.has(context.sessionId)) return;
    if (!following && channels !== undefined) {
      channels.subscribe(SESSION_TRANSITION, onTransition);
      following = true;
    }
    if (connections.size >= MAX_CONNECTIONS) {
      const oldest = connections.keys().next();
      if (oldest.done !== true) connections.delete(oldest.value);
    }
    connections.set(context.sessionId, clock.now());
    const fields: Record<string, unknown> = { sessionId: context.sessionId, protocolVersion: context.protocolVersion, era: context.era, principal: principalOf(context) };
    if (context.transportSessionId !== undefined) fields.transportSessionId = context.transportSessionId;
    write('info', 'connection opened', fields);
  };

  const finished = (context: MiddlewareContext, started: number, outcome: unknown, failed: boolean): void => {
    const fields: Record<string, unknown> = { direction: context.direction, method: context.method, sessionId: context.sessionId, durationMs: clock.now() - started };
    if (context.kind === 'notification') {
      write('debug', failed ? 'notification failed' : 'notification', fields);
      return;
    }
    fields.id = context.id;
    const target = targetOf(context.params);
    if (target !== undefined) fields.target = target;
    if (context.direction === 'inbound') fields.principal = principalOf(context);
    if (!failed) {
      // A tool's failure travels as a result (`isError: true`), not as a JSON-RPC error.
      if (context.method === 'tools/call' && (outcome as JsonObject).isError === true) write('warning', 'tool reported an error', fields);
      else write(context.direction === 'inbound' && WORK_METHODS.has(context.method) ? 'info' : 'debug', 'request completed', fields);
      return;
    }
    if (context.signal.aborted) {
      write('info', 'request cancelled', fields);
      return;
    }
    const wire = toWireError(outcome);
    fields.code = wire.code;
    fields.category = categoryOf(wire);
    fields.error = wire.message;
    write(wire.code === -32603 ? 'error' : 'warning', 'request failed', fields);
  };

  const middleware: Middleware = async (context, next) => {
    opened(context);
    const started = clock.now();
    let result: JsonObject;
    try {
      result = await next();
    } catch (error) {
      finished(context, started, error, true);
      throw error;
    }
    finished(context, started, result, false);
    return result;
  };

  const forRequest = (extra: RequestLogTarget): RequestLogger => {
    const entries = LEVELS.map((level) => [
      level,
      async (message: string, fields: Readonly<Record<string, unknown>> = {}): Promise<void> => {
        write(level, message, { ...fields, requestId: extra.requestId });
        await extra.log(level, { message, ...fields }, name);
      },
    ]);
    return Object.freeze(Object.fromEntries(entries) as Record<LoggingLevel, (message: string, fields?: Readonly<Record<string, unknown>>) => Promise<void>>);
  };

  return {
    middleware,
    log: (level, message, fields = {}) => write(level, message, fields),
    forRequest,
    close() {
      if (following) channels?.unsubscribe(SESSION_TRANSITION, onTransition);
      following = false;
      connections.clear();
    },
  };
}
