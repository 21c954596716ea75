/**
 * A ready-made middleware: one audit record per request, handed to a callback when the request
 * ends — who (the principal), what (the method and its target: a tool's or prompt's name, a
 * resource's URI), how long, and how it ended. Params are left out unless asked for: they may
 * hold what an audit trail must not keep.
 */
import { systemClock, type Clock, type JsonObject, type Middleware, type MiddlewareContext, type RequestId } from '@statemcp/protocol';
import { toWireError } from '@statemcp/protocol/internal';
import { principalOf } from './principal.js';

/** One request, as {@link auditLog} reports it. */
export interface AuditRecord {
  readonly direction: 'inbound' | 'outbound';
  readonly method: string;
  readonly id: RequestId;
  /** A tool's or prompt's `name`, a resource's `uri`, when the method has one. */
  readonly target: string | undefined;
  /** See {@link principalOf}, or the `principal` option. */
  readonly principal: string;
  /** The connection's label (`sessionId`) and the transport's session id, if any. */
  readonly sessionId: string;
  readonly transportSessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  readonly durationMs: number;
  /** `ok`: answered with a result; `error`: with an error response; `cancelled`: ended without an answer. */
  readonly outcome: 'ok' | 'error' | 'cancelled';
  /** For `error`: the JSON-RPC code and message. */
  readonly error?: { readonly code: number; readonly message: string };
  /** Only with `includeParams: true`. */
  readonly params?: JsonObject;
}

/** Options of {@link auditLog}. */
export interface AuditLogOptions {
  /** Which requests: `inbound` (default, what peers ask of this side), `outbound`, or `both`. */
  readonly direction?: 'inbound' | 'outbound' | 'both';
  /** Copy each request's params into its record (default false). */
  readonly includeParams?: boolean;
  /** The principal of a request (default {@link principalOf}). */
  readonly principal?: (context: MiddlewareContext) => string;
  /** Time source (default the system clock). */
  readonly clock?: Pick<Clock, 'now'>;
}

/**
 * An audit logger: `onRecord` gets one {@link AuditRecord} per request when it ends. A callback
 * that throws is ignored (the request's answer never depends on it).
 *
 * @example
 * ```ts
 * server.use(auditLog((record) => console.log(JSON.stringify(record))));
 * ```
 */
export function auditLog(onRecord: (record: AuditRecord) => void, options: AuditLogOptions = {}): Middleware {
  const direction = options.direction ?? 'inbound';
  const clock = options.clock ?? systemClock;
  const principal = options.principal ?? principalOf;
  const report = (context: MiddlewareContext & { readonly kind: 'request' }, started: number, outcome: AuditRecord['outcome'], error: unknown): void => {
    const record: { -readonly [K in keyof AuditRecord]: AuditRecord[K] } = {
      direction: context.direction,
      method: context.method,
      id: context.id,
      target: targetOf(context.params),
      principal: principal(context),
      sessionId: context.sessionId,
      transportSessionId: context.transportSessionId,
      protocolVersion: context.protocolVersion,
      durationMs: clock.now() - started,
      outcome,
    };
    if (outcome === 'error') {
      const wire = toWireError(error);
      record.error = { code: wire.code, message: wire.message };
    }
    if (options.includeParams === true) record.params = context.params;
    try {
      onRecord(record);
    } catch {
      // An audit sink's failure is its own; the request is answered regardless.
    }
  };
  return async (context, next) => {
    if (context.kind !== 'request' || (direction !== 'both' && context.direction !== direction)) return next();
    const started = clock.now();
    // One record per request: a cancelled one is reported when it is cancelled, even if its handler never returns.
    let reported = false;
    const once = (outcome: AuditRecord['outcome'], error: unknown): void => {
      if (reported) return;
      reported = true;
      context.signal.removeEventListener('abort', onAbort);
      report(context, started, outcome, error);
    };
    const onAbort = (): void => once('cancelled', undefined);
    context.signal.addEventListener('abort', onAbort, { once: true });
    try {
      const result = await next();
      once(context.signal.aborted ? 'cancelled' : 'ok', undefined);
      return result;
    } catch (error) {
      once(context.signal.aborted ? 'cancelled' : 'error', error);
      throw error;
    }
  };
}

/** The name or URI a request is about, when its method has one. */
export function targetOf(params: JsonObject): string | undefined {
  if (typeof params.name === 'string') return params.name;
  if (typeof params.uri === 'string') return params.uri;
  const ref = params.ref;
  if (typeof ref === 'object' && ref !== null && !Array.isArray(ref)) {
    const named = (ref as JsonObject).name ?? (ref as JsonObject).uri;
    if (typeof named === 'string') return named;
  }
  return undefined;
}
