/**
 * The parts a Streamable HTTP session transport is made of: the settings every session of a
 * server shares, the three kinds of exchange a session routes messages to (an SSE request
 * stream, a JSON exchange, the standalone GET stream) and how each is made, and what the server
 * hands over per POST.
 */
import { type Clock, type InboundContext, type JsonRpcMessage, type JsonRpcResponse, type RequestId, type Transport } from '@statemcp/protocol';
import { hasFeature, type AdoptedSession } from '@statemcp/protocol/internal';
import { JsonAnswer, modernErrorStatus, type HttpAnswer } from './http-response.js';
import type { EventStore } from './event-store.js';
import type { HttpServerSessionTransport } from './session-transport.js';
import type { SseConnection } from './sse-connection.js';

/** True for a JSON-RPC response (a result or an error): it has no `method`. */
export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message);
}

/** Settings shared by every session transport of one server. */
export interface SessionTransportSettings {
  eventStore: EventStore | undefined;
  retryIntervalMs: number | undefined;
  keepAliveIntervalMs: number;
  maxQueuedMessages: number;
  /** Unread bytes one SSE connection may hold before sends wait for room. */
  maxStreamBufferBytes: number;
  /** How long a send may wait for room before its connection is abandoned, ms. */
  stalledStreamTimeoutMs: number;
  clock: Clock;
  /** Called once when the transport has closed, whoever closed it. */
  onClosed?: (transport: HttpServerSessionTransport) => void;
  /** Called when an HTTP exchange of this session opens or ends (activity for idle timeouts). */
  onActivity?: (transport: HttpServerSessionTransport) => void;
  /**
   * Cluster mode: this instance's id. POST streams then record their request ids in the event
   * store (`trackRequests`), so an instance adopting the session after this one died can end
   * the requests left unanswered.
   */
  instanceId?: string;
}

/** What one session transport is made of: the server's shared settings and what sets this session apart. */
export interface SessionTransportOptions {
  readonly settings: SessionTransportSettings;
  /** The `Mcp-Session-Id`; `undefined` for a transport that serves one stateless request. */
  readonly sessionId?: string | undefined;
  /** Stateless only: the version the request is served at (its header, or the era's). */
  readonly requestVersion?: string | undefined;
  /**
   * Stateless only: the request is an `initialize`, so the session runs the handshake rather
   * than start in Operating at `requestVersion` (protocol `sessionAssumed`).
   */
  readonly carriesInitialize?: boolean;
  /** A session taken over from an instance that died: its machine starts in Operating (protocol `sessionAdopted`). */
  readonly adopted?: AdoptedSession | undefined;
  /**
   * A replica of a session another instance runs (`cluster-replicas.ts`): written into every
   * stream id after the session's scope, so a `Last-Event-ID` names the instance that wrote it.
   */
  readonly streamTag?: string | undefined;
}

/** One POST carrying requests, answered as SSE. Lives across reconnections. */
export interface RequestStream {
  readonly kind: 'sse';
  readonly id: string;
  connection: SseConnection | undefined;
  /** Serialises store-then-write so event ids are assigned and written in order. */
  chain: Promise<void>;
  readonly pending: Set<RequestId>;
  done: boolean;
}

/** One POST carrying requests, answered with a JSON body once every response is in. */
export interface JsonExchange {
  readonly kind: 'json';
  readonly order: readonly RequestId[];
  readonly batch: boolean;
  /**
   * The responses in, by the position of their request in {@link order} (an array, not a map:
   * most POSTs carry one request, and a map per POST was a share of a stateless call's garbage).
   */
  readonly responses: (JsonRpcResponse | undefined)[];
  /** How many of {@link order}'s requests are still unanswered. */
  unanswered: number;
  /** The headers every answer of this POST carries (the fixed ones of its route). */
  readonly headers: Record<string, string>;
  /** Answers the POST: the promise's own resolving function (see {@link answerExchange}). */
  readonly resolve: (answer: HttpAnswer) => void;
  /** 2026-07-28+: an error answer gets the HTTP status its code maps to (400, 404) instead of 200. */
  readonly errorStatus?: boolean;
  /**
   * Mode `auto`, while unanswered: the exchange becomes an SSE stream when a related
   * notification comes before the answer. A flag, not a closure: nothing is built per POST for it.
   */
  upgradable: boolean;
}

/** A POST's SSE stream with id `id`, its requests `pending`, no connection yet. */
export function newRequestStream(id: string, pending: readonly RequestId[]): RequestStream {
  return { kind: 'sse', id, connection: undefined, chain: Promise.resolve(), pending: new Set(pending), done: false };
}

/** A POST's JSON exchange, answered through `resolve` (its promise's own resolving function). */
export function newJsonExchange(post: AcceptedPost, resolve: (answer: HttpAnswer) => void): JsonExchange {
  return {
    kind: 'json',
    order: post.requestIds,
    batch: post.batch,
    responses: new Array<JsonRpcResponse | undefined>(post.requestIds.length),
    unanswered: post.requestIds.length,
    errorStatus: hasFeature(post.version, 'routingHeaders'),
    headers: post.headers,
    resolve,
    upgradable: post.mode === 'auto',
  };
}

/** Answers an exchange's POST; a `Response` (an error built elsewhere) gets the exchange's headers added. */
export function answerExchange(exchange: JsonExchange, answer: Response | JsonAnswer): void {
  exchange.upgradable = false;
  if (answer instanceof Response) for (const name in exchange.headers) answer.headers.set(name, exchange.headers[name] as string);
  exchange.resolve(answer);
}

/**
 * The JSON body of a finished exchange: the one response, or the batch's in request order. A
 * 2026-07-28 error gets the HTTP status its code maps to (MCP 2026-07-28, Transports §Streamable HTTP).
 */
export function jsonAnswerOf(exchange: JsonExchange): JsonAnswer {
  const bodies = exchange.responses;
  const single = bodies[0];
  const status = exchange.errorStatus === true && !exchange.batch && single !== undefined && 'error' in single ? modernErrorStatus(single.error.code) : 200;
  return new JsonAnswer(exchange.batch ? bodies : single, status, exchange.headers);
}

/** Records the response to `id` in its exchange; true when it was the last one the exchange waited for. */
export function recordJsonResponse(exchange: JsonExchange, id: RequestId, response: JsonRpcResponse): boolean {
  const at = exchange.order.length === 1 ? 0 : exchange.order.indexOf(id);
  if (at < 0 || exchange.responses[at] !== undefined) return false;
  exchange.responses[at] = response;
  return --exchange.unanswered === 0;
}

export interface StandaloneStream {
  readonly id: string;
  connection: SseConnection | undefined;
  chain: Promise<void>;
  /** Messages not yet written on any connection, with their event ids when stored. */
  queue: { id: string | undefined; message: JsonRpcMessage }[];
}

/** What the server hands over for one POST that passed the HTTP checks. */
export interface AcceptedPost {
  /** The classified messages (one, or several for a 2025-03-26 batch; see `post-envelope.ts`). */
  readonly messages: readonly JsonRpcMessage[];
  /** Ids of the requests among `messages`, in order. */
  readonly requestIds: readonly RequestId[];
  readonly batch: boolean;
  /** `auto`: a JSON answer unless a notification related to the request comes first, then SSE. */
  readonly mode: 'sse' | 'json' | 'auto';
  /** The version that decides priming (header, or negotiated). */
  readonly version: string;
  readonly context: InboundContext;
  readonly headers: Record<string, string>;
  /** The HTTP request, to learn when its client goes away: a stateless JSON request then ends (cancellation). */
  readonly client?: { onClientGone(listener: () => void): void } | undefined;
}

/**
 * The Transport each session gets. Besides the {@link Transport} contract it lets request
 * handlers end the current request's SSE connection early (polling).
 */
export interface StreamableHttpSessionTransport extends Transport {
  /** The `Mcp-Session-Id` of this session; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** False in stateless mode: there is no channel for server-to-client requests. */
  readonly canSendRequests: boolean;
  /** True when this transport serves a single stateless request. */
  readonly stateless: boolean;
  /** The protocol version the session negotiated, once its `initialize` result went out. */
  readonly protocolVersion: string | undefined;
  /**
   * Stateless transports only: the version the request declared in `MCP-Protocol-Version`
   * (`2025-03-26` when absent, as the spec says to assume). Lets the server serve a
   * handshake-less request at the right revision.
   */
  readonly requestProtocolVersion: string | undefined;
  /**
   * Ends the SSE connection carrying request `requestId` now, after a `retry:` hint, so the
   * client reconnects with `GET` + `Last-Event-ID` and receives the rest (including the
   * result) there. Needs an event store; returns false when nothing was closed.
   */
  closeRequestStream(requestId: RequestId): boolean;
  /** Ends the standalone GET connection the same way. Returns false when none is open. */
  closeStandaloneStream(): boolean;
}

/**
 * The first id of a POST that is already in flight on its session (`routes`) or repeated
 * within the POST (JSON-RPC 2.0 §4: ids of pending requests are unique). The one check of the
 * HTTP layer: a batch's own duplicates and another POST's pending ids are the same rule.
 */
export function firstIdInUse(routes: ReadonlyMap<RequestId, unknown>, ids: readonly RequestId[]): RequestId | undefined {
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] as RequestId;
    if (routes.has(id) || ids.indexOf(id) < i) return id;
  }
  return undefined;
}
