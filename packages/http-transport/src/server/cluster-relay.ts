/**
 * Any instance serves any request of a stateful session (scale-out, issue 15): an instance that
 * receives a request for a session another instance runs relays it over the {@link MessageBus}
 * to that instance (the record's `owner` in the {@link SessionStore}), which serves it exactly as
 * if it had arrived there and streams the HTTP answer back.
 *
 * ```
 *  client ──HTTP──▶ B ── publish session:<id> {request} ─────────▶ A (runs the session's machine)
 *                   B ◀── publish stream:<id>:<relay> {head, chunk…, end} ── A.handleFetch(request)
 *                   B ── publish stream:<id>:<relay>:up {abort} ──▶ A    (client went away)
 * ```
 *
 * So the session's connection machine stays one machine, on its owner, where `inspect` shows
 * it; a POST, a GET stream, a `Last-Event-ID` resume, a DELETE, or the client's answer to a
 * server-to-client request may arrive at any instance. The owner re-runs every check (Host,
 * authentication, the session's principal), so relaying grants nothing a direct request would not.
 */
import { ErrorCode, type JsonObject } from '@statemcp/protocol';
import { HttpErrorCode, errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { SESSION_ID_HEADER } from './server-options.js';
import type { MessageBus, SessionStore } from './shared-state.js';
import { busChannel } from './shared-state.js';

/** What the relay needs from the server options' `cluster`. */
export interface ClusterOptions {
  /** This instance's id (the `owner` written into the records of the sessions it runs). Unique per instance. */
  instanceId: string;
  /** The shared session records. */
  sessions: SessionStore;
  /** The shared bus requests and answers travel on. */
  bus: MessageBus;
}

/** A relayed request, as published on the owner's session channel. */
interface RelayedRequest {
  readonly kind: 'request';
  readonly relay: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

type RelayFrame =
  | { readonly kind: 'head'; readonly status: number; readonly headers: [string, string][] }
  | { readonly kind: 'chunk'; readonly data: string }
  | { readonly kind: 'end' };

/** Hop-by-hop headers never relayed. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

/**
 * The owner side: serves relayed requests of one session by handing them to `serve` (the
 * server's fetch front door) and publishing the answer back in frames. Returns the
 * unsubscribe function.
 */
export async function serveRelayedRequests(
  bus: MessageBus,
  sessionId: string,
  serve: (request: Request) => Promise<Response>,
  onError: (error: unknown) => void,
): Promise<() => Promise<void>> {
  return bus.subscribe(busChannel.session(sessionId), (payload) => {
    const message = JSON.parse(payload) as RelayedRequest;
    if (message.kind !== 'request') return;
    void answer(bus, sessionId, message, serve).catch(onError);
  });
}

async function answer(bus: MessageBus, sessionId: string, message: RelayedRequest, serve: (request: Request) => Promise<Response>): Promise<void> {
  const down = busChannel.stream(sessionId, message.relay);
  const abort = new AbortController();
  const unsubscribe = await bus.subscribe(`${down}:up`, () => abort.abort());
  try {
    const init: RequestInit = { method: message.method, headers: message.headers, signal: abort.signal };
    if (message.body !== undefined) init.body = message.body;
    const response = await serve(new Request(message.url, init));
    const frame = (value: RelayFrame): Promise<unknown> => Promise.resolve(bus.publish(down, JSON.stringify(value)));
    await frame({ kind: 'head', status: response.status, headers: [...response.headers] });
    if (response.body !== null) {
      const decoder = new TextDecoder();
      const reader = response.body.getReader();
      abort.signal.addEventListener('abort', () => void reader.cancel().catch(() => undefined), { once: true });
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const data = decoder.decode(value, { stream: true });
        if (data !== '') await frame({ kind: 'chunk', data });
      }
    }
    await frame({ kind: 'end' });
  } finally {
    await unsubscribe();
  }
}

/**
 * The receiving side: relays one request to the owner of its session and resolves with the
 * answer as a streamed `Response`; `undefined` when no instance serves the session any more.
 */
export async function relayRequest(
  bus: MessageBus,
  sessionId: string,
  request: { method: string; url: string; headers: Readonly<Record<string, string>>; body: string | undefined; signal: AbortSignal | undefined },
): Promise<Response | undefined> {
  const relay = globalThis.crypto.randomUUID();
  const down = busChannel.stream(sessionId, relay);
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const encoder = new TextEncoder();
  let resolveHead!: (response: Response) => void;
  const head = new Promise<Response>((resolve) => {
    resolveHead = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    start: (c) => {
      controller = c;
    },
    cancel: () => {
      void finish(true);
    },
  });
  let finished = false;
  const finish = async (aborted: boolean): Promise<void> => {
    if (finished) return;
    finished = true;
    signal?.removeEventListener('abort', onAbort);
    await unsubscribe();
    if (aborted) await Promise.resolve(bus.publish(`${down}:up`, JSON.stringify({ kind: 'abort' }))).catch(() => undefined);
  };
  const unsubscribe = await bus.subscribe(down, (payload) => {
    const frame = JSON.parse(payload) as RelayFrame;
    switch (frame.kind) {
      case 'head': {
        const headers = new Headers();
        for (const [name, value] of frame.headers) if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, value);
        const nullBody = frame.status === 204 || frame.status === 304;
        resolveHead(new Response(nullBody ? null : body, { status: frame.status, headers }));
        break;
      }
      case 'chunk':
        controller.enqueue(encoder.encode(frame.data));
        break;
      case 'end':
        controller.close();
        void finish(false);
        break;
    }
  });
  const signal = request.signal;
  const onAbort = (): void => {
    void finish(true);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
  const message: RelayedRequest = { kind: 'request', relay, method: request.method, url: request.url, headers, body: request.body };
  let reached: number | undefined;
  try {
    reached = await bus.publish(busChannel.session(sessionId), JSON.stringify(message));
  } catch (error) {
    await finish(false);
    throw error;
  }
  if (reached === 0) {
    await finish(false);
    return undefined;
  }
  return head;
}

/** The cluster side of one server: what it does when sessions open, are used and end, and for foreign sessions. */
export interface ClusterMembership {
  /**
   * Writes the shared record of a session this instance now runs (from its `initialize` request)
   * and starts serving relayed requests for it. When the store is unreachable it ends the session
   * (`end`) and resolves with the 503 to answer.
   */
  register(sessionId: string, protocolVersion: string | undefined, initialize: unknown, principal: string | undefined, end: () => void): Promise<Response | undefined>;
  /** Deletes the record of a session that ended here (DELETE, idle timeout, close): every instance sees it gone. */
  unregister(sessionId: string): void;
  /** Restarts the record's time to live (the session was used). */
  touch(sessionId: string): void;
  /** Relays a request for a session this instance does not run; `undefined` when the session is unknown everywhere. */
  relay(sessionId: string, request: Parameters<typeof relayRequest>[2]): Promise<Response | undefined>;
}

/** Builds the {@link ClusterMembership} of a server whose fetch front door is `serve`. */
export function joinCluster(
  cluster: ClusterOptions,
  ttlMs: number,
  serve: (request: Request) => Promise<Response>,
  onError: (error: unknown) => void,
): ClusterMembership {
  const ttl = Number.isFinite(ttlMs) ? ttlMs : 24 * 60 * 60_000;
  const relays = new Map<string, () => Promise<void>>();
  return {
    register: async (sessionId, protocolVersion, initialize, principal, end) => {
      const clientCapabilities = (initialize as { params?: { capabilities?: JsonObject } } | undefined)?.params?.capabilities;
      try {
        await cluster.sessions.put({ sessionId, protocolVersion, clientCapabilities, principal, owner: cluster.instanceId, expiresAt: 0 }, ttl);
        relays.set(sessionId, await serveRelayedRequests(cluster.bus, sessionId, serve, onError));
        return undefined;
      } catch (error) {
        onError(error);
        end();
        return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: the shared session store is unreachable', { headers: { 'retry-after': '1' } });
      }
    },
    unregister: (sessionId) => {
      const stop = relays.get(sessionId);
      relays.delete(sessionId);
      void Promise.all([stop?.(), cluster.sessions.delete(sessionId)]).catch(onError);
    },
    touch: (sessionId) => {
      void Promise.resolve(cluster.sessions.touch(sessionId, ttl)).catch(onError);
    },
    relay: async (sessionId, request) => {
      const record = await cluster.sessions.get(sessionId);
      if (record === undefined || record.owner === cluster.instanceId) return undefined;
      return relayRequest(cluster.bus, sessionId, request);
    },
  };
}

/**
 * Relays `inbound` when it names a session that another instance runs; `undefined` when this
 * instance should answer it (its own session, no session header, or a session unknown everywhere).
 * A legacy HTTP+SSE POST (`legacyMessage`) names its session in `?sessionId=` like `/messages` reads it.
 */
export async function relayToOwner(
  cluster: ClusterMembership,
  inbound: InboundRequest,
  maxBody: number,
  ownsSession: (id: string) => boolean,
  legacyMessage = false,
): Promise<Response | undefined> {
  const sessionId = (legacyMessage ? inbound.searchParams.get('sessionId') : undefined) ?? inbound.header(SESSION_ID_HEADER);
  if (sessionId === undefined || sessionId === '' || ownsSession(sessionId)) return undefined;
  let body: string | undefined;
  if (inbound.method === 'POST') {
    const read = await inbound.readBody(maxBody);
    if (!read.ok) return read.tooLarge ? errorResponse(413, ErrorCode.InvalidRequest, 'Payload Too Large') : errorResponse(400, ErrorCode.ParseError, `Parse error: ${read.reason}`);
    body = 'text' in read ? read.text : JSON.stringify(read.parsed);
  }
  const response = await cluster.relay(sessionId, { method: inbound.method, url: inbound.toRequest().url, headers: inbound.headerRecord(), body, signal: inbound.signal });
  // Known nowhere (or the owner is gone): a body was read, so answer here rather than fall through.
  return response ?? (body === undefined ? undefined : errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found'));
}
