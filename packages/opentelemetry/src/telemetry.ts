/**
 * OpenTelemetry for statemcp, as one middleware (see `Middleware` in `@statemcp/protocol`):
 * a span per request and notification, named and attributed as the OpenTelemetry semantic
 * conventions for MCP say (https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/), the
 * operation-duration histograms, and the session-duration histogram from the session
 * transitions statemcp publishes on `node:diagnostics_channel`. What this side sends gets a
 * CLIENT span whose context goes out in the request's `_meta` (`traceparent`, `tracestate`);
 * what it receives gets a SERVER span whose parent is the context the request carried — so a
 * client's span parents the server's across any transport. Each Multi Round-Trip round is a
 * request of its own (a SERVER span per round, all children of the client's one span).
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  INVALID_SPAN_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context as otelContext,
  createNoopMeter,
  createTraceState,
  isSpanContextValid,
  metrics,
  trace,
  type Attributes,
  type Context,
  type Histogram,
  type Meter,
  type Span,
  type SpanContext,
  type Tracer,
} from '@opentelemetry/api';
import { DIAGNOSTIC_CHANNEL_NAMES, JsonRpcError, McpError, isJsonObject, type InspectEvent, type JsonObject, type Middleware, type MiddlewareContext, type MiddlewareNext, type TraceContext } from '@statemcp/protocol';
import { DURATION_BUCKETS, EXECUTE_TOOL, MCP_ATTRIBUTES as A, MCP_METRICS, TOOL_ERROR } from './attributes.js';

/** The instrumentation scope this package reports under. */
export const INSTRUMENTATION_NAME = '@statemcp/opentelemetry';

/** Network attributes a span cannot learn from the message (a stdio pipe, the server a client dials). */
export interface NetworkAttributes {
  /** `network.transport`: `pipe` for stdio, `tcp` for HTTP (set from the request over HTTP). */
  readonly transport?: string;
  /** `network.protocol.name`, e.g. `http` (set from the request over HTTP). */
  readonly protocolName?: string;
  readonly protocolVersion?: string;
  /** Client side: the server's host and port (`server.address`, `server.port`). */
  readonly serverAddress?: string;
  readonly serverPort?: number;
}

/** Options of {@link McpTelemetry}. */
export interface McpTelemetryOptions {
  /** Which side this is: names the session-duration metric (`mcp.client…` or `mcp.server…`). */
  readonly side: 'client' | 'server';
  /** Default: `trace.getTracer('@statemcp/opentelemetry')` of the global provider. */
  readonly tracer?: Tracer;
  /** Default: `metrics.getMeter('@statemcp/opentelemetry')` of the global provider. */
  readonly meter?: Meter;
  /** Network attributes added to every span and measurement. */
  readonly network?: NetworkAttributes;
  /** Spans for notifications too (default true). */
  readonly notifications?: boolean;
  /** Put a resource's URI in span names (`resources/read file:///a`; default false: URIs are high-cardinality). */
  readonly resourceUriInSpanName?: boolean;
}

interface TrackedSession {
  readonly startedAt: number;
  readonly attributes: Attributes;
}

/** Span names kept at most (`#spanName`); the cache starts over past it. */
const MAX_CACHED_NAMES = 1_000;
const CLIENT_SPAN = Object.freeze({ kind: SpanKind.CLIENT });
const SERVER_SPAN = Object.freeze({ kind: SpanKind.SERVER });

/** What a meter of the API without an SDK hands out for every histogram (one shared no-op). */
const NOOP_HISTOGRAM = createNoopMeter().createHistogram('statemcp.noop');

/** Sessions tracked for their duration at most; the oldest is dropped past it. */
const MAX_TRACKED_SESSIONS = 10_000;

/**
 * Spans and metrics for a statemcp server or client.
 *
 * @example
 * ```ts
 * const telemetry = new McpTelemetry({ side: 'server' });
 * server.use(telemetry.middleware); // first, so its span covers every other middleware
 * ```
 */
export class McpTelemetry {
  /** Register it with `server.use()` / `client.use()`, before other middleware. */
  readonly middleware: Middleware;
  readonly #side: 'client' | 'server';
  readonly #tracer: Tracer;
  readonly #clientDuration: Histogram;
  readonly #serverDuration: Histogram;
  readonly #sessionDuration: Histogram;
  readonly #network: Attributes;
  readonly #notifications: boolean;
  readonly #uriInName: boolean;
  /** No SDK's meter was registered when this was built: the API's no-op meter is kept for good. */
  readonly #metricsOff: boolean;
  readonly #sessions = new Map<string, TrackedSession>();
  /** The span context of the `tools/call` that created each task seen (see `#taskLink`). */
  readonly #tasks = new Map<string, SpanContext>();
  /** Span names of tool calls and prompts, by name (see `#spanName`). */
  readonly #names = new Map<string, string>();
  #listening = false;
  readonly #onTransition = (message: unknown): void => this.#sessionTransition(message as InspectEvent);

  constructor(options: McpTelemetryOptions) {
    this.#side = options.side;
    this.#tracer = options.tracer ?? trace.getTracer(INSTRUMENTATION_NAME);
    const meter = options.meter ?? metrics.getMeter(INSTRUMENTATION_NAME);
    const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
    this.#clientDuration = meter.createHistogram(MCP_METRICS.clientOperationDuration, { unit: 's', description: 'MCP request or notification duration as the sender saw it', advice });
    this.#serverDuration = meter.createHistogram(MCP_METRICS.serverOperationDuration, { unit: 's', description: 'MCP request or notification duration as the receiver saw it', advice });
    this.#sessionDuration = meter.createHistogram(options.side === 'client' ? MCP_METRICS.clientSessionDuration : MCP_METRICS.serverSessionDuration, {
      unit: 's',
      description: `The duration of an MCP session as the ${options.side} saw it`,
      advice,
    });
    this.#metricsOff = this.#serverDuration === NOOP_HISTOGRAM && this.#clientDuration === NOOP_HISTOGRAM && this.#sessionDuration === NOOP_HISTOGRAM;
    this.#network = networkAttributes(options.network);
    this.#notifications = options.notifications ?? true;
    this.#uriInName = options.resourceUriInSpanName ?? false;
    this.middleware = (context, next) => this.#wrap(context, next);
  }

  /** Stops following session transitions (the middleware keeps tracing requests). Idempotent. */
  close(): void {
    if (this.#listening) unsubscribe(DIAGNOSTIC_CHANNEL_NAMES['session.transition'], this.#onTransition);
    this.#listening = false;
    this.#sessions.clear();
  }

  #wrap(context: MiddlewareContext, next: MiddlewareNext): Promise<JsonObject> {
    if (context.kind === 'notification' && !this.#notifications) return next();
    const outbound = context.direction === 'outbound';
    const active = otelContext.active();
    const parent = outbound ? active : (remoteParent(active, context.traceContext) ?? active);
    const taskLink = this.#taskLink(context);
    const kind = outbound ? CLIENT_SPAN : SERVER_SPAN;
    const span = this.#tracer.startSpan(this.#spanName(context), taskLink === undefined ? kind : { ...kind, links: [{ context: taskLink }] }, parent);
    const spanContext = span.spanContext();
    // The API's no-op span carries INVALID_SPAN_CONTEXT itself: no hex check for it on every call.
    const valid = spanContext !== INVALID_SPAN_CONTEXT && isSpanContextValid(spanContext);
    const recording = span.isRecording();
    // Nothing records and no context travels (the API alone, no SDK registered): the request
    // runs as it would without this middleware, so instrumented code costs nothing until an
    // SDK is installed. A span context from a traced caller still goes on (below).
    if (!recording && !valid && this.#metricsOff) return next();
    const measured = this.#measuredAttributes(context);
    this.#track(context, measured);
    // A non-recording span (sampled out) is given no attributes: nobody would read them.
    if (recording) span.setAttributes(this.#spanAttributes(context, measured));
    if (valid && outbound && context.kind === 'request') propagateSpan(context, spanContext);
    const histogram = outbound ? this.#clientDuration : this.#serverDuration;
    const started = performance.now();
    let outcome: Promise<JsonObject>;
    try {
      // Without a valid span there is no context to hand the handler: it runs in the caller's.
      outcome = valid ? otelContext.with(trace.setSpan(parent, span), next) : next();
    } catch (error) {
      outcome = Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return outcome.then(
      (result) => {
        if (context.method === 'tools/call' && result.isError === true) {
          span.setAttribute(A.errorType, TOOL_ERROR);
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'the tool reported an error' });
          finish(span, histogram, started, { ...measured, [A.errorType]: TOOL_ERROR });
        } else {
          finish(span, histogram, started, measured);
        }
        if (context.method === 'tools/call' && valid) this.#rememberTask(result, spanContext);
        return result;
      },
      (error: unknown) => {
        const failure = errorAttributes(error);
        span.setAttributes(failure);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        finish(span, histogram, started, { ...measured, ...failure });
        throw error;
      },
    );
  }

  /**
   * `{mcp.method.name} {target}`: the tool's or prompt's name; a resource's URI only when asked
   * for. Tool and prompt names are few: their span names are kept, not rebuilt per call.
   */
  #spanName(context: MiddlewareContext): string {
    const { method, params } = context;
    if ((method === 'tools/call' || method === 'prompts/get') && typeof params.name === 'string') {
      const names = this.#names;
      const key = method === 'tools/call' ? params.name : `\u0000${params.name}`;
      let name = names.get(key);
      if (name === undefined) {
        name = `${method} ${params.name}`;
        if (names.size >= MAX_CACHED_NAMES) names.clear();
        names.set(key, name);
      }
      return name;
    }
    if (this.#uriInName && typeof params.uri === 'string') return `${method} ${params.uri}`;
    return method;
  }

  /** The low-cardinality attributes, on the span and on its measurement (no ids, URIs or addresses). */
  #measuredAttributes(context: MiddlewareContext): Attributes {
    const attributes: Attributes = { [A.methodName]: context.method };
    for (const key in this.#network) attributes[key] = this.#network[key];
    if (context.protocolVersion !== undefined) attributes[A.protocolVersion] = context.protocolVersion;
    const params = context.params;
    if (context.method === 'tools/call' && typeof params.name === 'string') {
      attributes[A.toolName] = params.name;
      attributes[A.operationName] = EXECUTE_TOOL;
    } else if (context.method === 'prompts/get' && typeof params.name === 'string') {
      attributes[A.promptName] = params.name;
    }
    const http = context.http;
    if (http !== undefined) {
      attributes[A.networkTransport] = 'tcp';
      attributes[A.networkProtocolName] = 'http';
      const url = URL.canParse(http.url) ? new URL(http.url) : undefined;
      if (url !== undefined) {
        attributes[A.serverAddress] = url.hostname;
        attributes[A.serverPort] = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
      }
    }
    return attributes;
  }

  /** The span's attributes: the measured ones plus the per-message ones. */
  #spanAttributes(context: MiddlewareContext, measured: Attributes): Attributes {
    const attributes: Attributes = { ...measured };
    if (context.transportSessionId !== undefined) attributes[A.sessionId] = context.transportSessionId;
    if (context.kind === 'request') attributes[A.requestId] = String(context.id);
    if (typeof context.params.uri === 'string' && context.method.startsWith('resources/')) attributes[A.resourceUri] = context.params.uri;
    const address = context.http?.remoteAddress;
    if (address !== undefined) attributes[A.clientAddress] = address;
    return attributes;
  }

  /**
   * A task (`tasks/get`, `tasks/result`, `tasks/cancel`, `tasks/update`…) links its span to the
   * span of the `tools/call` that created it, when this instance saw that call.
   */
  #taskLink(context: MiddlewareContext): SpanContext | undefined {
    if (this.#tasks.size === 0 || !context.method.startsWith('tasks/')) return undefined;
    const taskId = context.params.taskId;
    return typeof taskId === 'string' ? this.#tasks.get(taskId) : undefined;
  }

  /** A `tools/call` answered with a task (2025-11-25 `{ task }`, 2026-07-28 `resultType: 'task'`): its span is what the task's spans link to. */
  #rememberTask(result: JsonObject, spanContext: SpanContext): void {
    const task = result.task;
    const taskId = result.resultType === 'task' ? result.taskId : isJsonObject(task) ? task.taskId : undefined;
    if (typeof taskId !== 'string') return;
    if (this.#tasks.size >= MAX_TRACKED_SESSIONS) {
      const oldest = this.#tasks.keys().next();
      if (oldest.done !== true) this.#tasks.delete(oldest.value);
    }
    this.#tasks.set(taskId, spanContext);
  }

  /** Remembers a session the first time one of its messages passes, to time it until it terminates. */
  #track(context: MiddlewareContext, attributes: Attributes): void {
    const sessions = this.#sessions;
    if (sessions.has(context.sessionId)) return;
    if (!this.#listening) {
      subscribe(DIAGNOSTIC_CHANNEL_NAMES['session.transition'], this.#onTransition);
      this.#listening = true;
    }
    if (sessions.size >= MAX_TRACKED_SESSIONS) {
      const oldest = sessions.keys().next();
      if (oldest.done !== true) sessions.delete(oldest.value);
    }
    const kept: Attributes = { ...this.#network };
    for (const key of [A.protocolVersion, A.networkTransport, A.networkProtocolName]) if (attributes[key] !== undefined) kept[key] = attributes[key];
    sessions.set(context.sessionId, { startedAt: performance.now(), attributes: kept });
  }

  #sessionTransition(event: InspectEvent): void {
    if (event.type !== 'session.transition' || event.to !== 'terminated') return;
    const session = this.#sessions.get(event.sessionId);
    if (session === undefined) return;
    this.#sessions.delete(event.sessionId);
    const attributes = event.event === 'fatalError' ? { ...session.attributes, [A.errorType]: event.event } : session.attributes;
    this.#sessionDuration.record((performance.now() - session.startedAt) / 1000, attributes);
  }

  /** Which side this instance measures (its session-duration metric). */
  get side(): 'client' | 'server' {
    return this.#side;
  }
}

/** The span context a request carried in `_meta`, as the parent of its SERVER span (remote). */
function remoteParent(active: Context, carried: TraceContext | undefined): Context | undefined {
  const match = carried?.traceparent === undefined ? null : /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})/.exec(carried.traceparent);
  if (match === null || match[1] === undefined || match[2] === undefined || match[3] === undefined) return undefined;
  const spanContext: SpanContext = { traceId: match[1], spanId: match[2], traceFlags: Number.parseInt(match[3], 16), isRemote: true };
  if (carried?.tracestate !== undefined) spanContext.traceState = createTraceState(carried.tracestate);
  return isSpanContextValid(spanContext) ? trace.setSpanContext(active, spanContext) : undefined;
}

/** Sends the CLIENT span's context in the request's `_meta` (its baggage kept). */
function propagateSpan(context: MiddlewareContext & { readonly kind: 'request' }, spanContext: SpanContext): void {
  if (!isSpanContextValid(spanContext)) return;
  const flags = (spanContext.traceFlags & 0xff).toString(16).padStart(2, '0');
  const carried: { traceparent: string; tracestate?: string; baggage?: string } = { traceparent: `00-${spanContext.traceId}-${spanContext.spanId}-${flags}` };
  const state = spanContext.traceState?.serialize();
  if (state !== undefined && state !== '') carried.tracestate = state;
  const baggage = context.traceContext?.baggage;
  if (baggage !== undefined) carried.baggage = baggage;
  context.propagate(carried);
}

/** `error.type` (and `rpc.response.status_code` for a JSON-RPC error response) of a failure. */
function errorAttributes(error: unknown): Attributes {
  if (error instanceof JsonRpcError) return { [A.errorType]: String(error.code), [A.responseStatusCode]: String(error.code) };
  if (error instanceof McpError) return { [A.errorType]: error.code };
  return { [A.errorType]: error instanceof Error ? error.name : '_OTHER' };
}

function finish(span: Span, histogram: Histogram, started: number, attributes: Attributes): void {
  span.end();
  histogram.record((performance.now() - started) / 1000, attributes);
}

function networkAttributes(network: NetworkAttributes | undefined): Attributes {
  const attributes: Attributes = {};
  if (network?.transport !== undefined) attributes[A.networkTransport] = network.transport;
  if (network?.protocolName !== undefined) attributes[A.networkProtocolName] = network.protocolName;
  if (network?.protocolVersion !== undefined) attributes[A.networkProtocolVersion] = network.protocolVersion;
  if (network?.serverAddress !== undefined) attributes[A.serverAddress] = network.serverAddress;
  if (network?.serverPort !== undefined) attributes[A.serverPort] = network.serverPort;
  return attributes;
}
