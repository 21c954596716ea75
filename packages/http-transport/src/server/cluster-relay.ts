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
 *
 * When the owner is dead (the relay reaches no instance, or its liveness expired), the
 * receiving instance adopts the session: it claims the record atomically (one adopter wins; the
 * others relay to it), rebuilds the session's machine from the record straight into Operating,
 * and serves the request itself (`cluster-failover.ts`).
 */
import { ErrorCode, type Clock, type JsonObject } from '@statemcp/protocol';
import { readmitted } from './auth-gate.js';
import { DEFAULT_LIVENESS_TTL_MS, livenessWatch, type LivenessWatch, type OwnerLoss } from './cluster-failover.js';
import { HttpErrorCode, errorResponse } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { SESSION_ID_HEADER } from './server-options.js';
import type { LivenessStore, MessageBus, SessionRecord, SessionStore } from './shared-state.js';
import { busChannel } from './shared-state.js';

/** What the relay needs from the server options' `cluster`. */
export interface ClusterOptions {
  /** This instance's id (the `owner` written into the records of the sessions it runs). Unique per instance. */
  instanceId: string;
  /** The shared session records. */
  sessions: SessionStore;
  /** The shared bus requests and answers travel on. */
  bus: MessageBus;
  /**
   * Instance liveness: this instance beats while it runs sessions, and a request relayed to an
   * owner whose liveness expires ends with an error instead of waiting forever. Without it, an
   * owner counts as dead only when a relay reaches no instance at all.
   */
  liveness?: LivenessStore;
  /** Time to live of this instance's liveness record, ms (beats every third of it). Default 6000. */
  livenessTtlMs?: number;
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

function withoutHopByHop(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}

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
    // Admitted by the relaying instance already (its DPoP proof is in the replay set).
    const response = await serve(readmitted(new Request(message.url, init)));
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
  watchOwner?: (onLost: (loss: OwnerLoss) => void) => () => void,
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
  let headSeen = false;
  let stopWatch: (() => void) | undefined = undefined;
  const finish = async (aborted: boolean): Promise<void> => {
    if (finished) return;
    finished = true;
    stopWatch?.();
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
        headSeen = true;
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
  const message: RelayedRequest = { kind: 'request', relay, method: request.method, url: request.url, headers: withoutHopByHop(request.headers), body: request.body };
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
  stopWatch = watchOwner?.((loss) => {
    if (finished) return;
    if (headSeen) {
      // The answer was streaming: end it; an SSE client resumes it with Last-Event-ID on the adopter.
      try {
        controller.close();
      } catch {
        // already closed or cancelled
      }
    } else {
      resolveHead(ownerLostResponse(loss));
    }
    void finish(false);
  });
  return head;
}

/** The answer to a relayed request whose owner died (or became unreachable) before answering. */
function ownerLostResponse(loss: OwnerLoss): Response {
  if (loss.kind === 'unreachable') {
    return errorResponse(503, HttpErrorCode.Refused, `Service Unavailable: ${loss.error.message}`, { headers: { 'retry-after': '1' } });
  }
  // 502: the instance running the session died holding the request; it may or may not have run.
  return errorResponse(502, ErrorCode.InternalError, `Internal error: instance ${loss.owner}, which ran this session, stopped before answering; the session continues on another instance`, {
    data: { lostInstance: loss.owner },
  });
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
  /**
   * Relays a request of `principal` for a session this instance does not run, or adopts the
   * session when its owner is dead and serves the request here; `undefined` when the session is
   * unknown everywhere or bound to another principal (it is not relayed: the answer is 404).
   */
  relay(sessionId: string, request: Parameters<typeof relayRequest>[2], principal: string | undefined): Promise<Response | undefined>;
  /** Stops this instance's liveness beats (the server is closing). */
  leave(): Promise<void>;
}

/** What the cluster side needs from its server. */
export interface ClusterHost {
  /** The server's fetch front door. */
  serve: (request: Request) => Promise<Response>;
  /**
   * Rebuilds the connection of a session this instance has just claimed from a dead owner
   * (`from`); false when it could not (the claim is then undone by deleting the record).
   */
  adopt: (record: SessionRecord, from: string) => Promise<boolean>;
  onError: (error: unknown) => void;
  clock: Clock;
}

/** Builds the {@link ClusterMembership} of a server whose fetch front door is `serve`. */
export function joinCluster(cluster: ClusterOptions, ttlMs: number, host: ClusterHost): ClusterMembership {
  const { serve, onError } = host;
  const ttl = Number.isFinite(ttlMs) ? ttlMs : 24 * 60 * 60_000;
  const relays = new Map<string, () => Promise<void>>();
  const liveness: LivenessWatch | undefined =
    cluster.liveness === undefined ? undefined : livenessWatch(cluster.liveness, cluster.instanceId, cluster.livenessTtlMs ?? DEFAULT_LIVENESS_TTL_MS, host.clock, onError);
  /** This instance now runs the session: serve its relayed requests, and beat. */
  const run = async (sessionId: string): Promise<void> => {
    relays.set(sessionId, await serveRelayedRequests(cluster.bus, sessionId, serve, onError));
    liveness?.beat();
  };
  /** Adoptions under way here: concurrent requests for the session wait for the one adoption. */
  const adopting = new Map<string, Promise<boolean | undefined>>();
  /**
   * Takes over the session of a dead owner: true once it runs here; false when another instance
   * claimed it first; `undefined` when it is gone (or cannot be adopted).
   */
  const adopt = (record: SessionRecord): Promise<boolean | undefined> => {
    const pending = adopting.get(record.sessionId);
    if (pending !== undefined) return pending;
    const adoption = claimAndRebuild(record).finally(() => adopting.delete(record.sessionId));
    adopting.set(record.sessionId, adoption);
    return adoption;
  };
  const claimAndRebuild = async (record: SessionRecord): Promise<boolean | undefined> => {
    if (cluster.sessions.claim === undefined) return undefined;
    const claimed = await cluster.sessions.claim(record.sessionId, record.owner, cluster.instanceId, ttl);
    if (claimed === undefined) return false;
    if (!(await host.adopt(claimed, record.owner))) {
      await cluster.sessions.delete(record.sessionId);
      return undefined;
    }
    await run(record.sessionId);
    return true;
  };
  return {
    register: async (sessionId, protocolVersion, initialize, principal, end) => {
      const params = (initialize as { params?: { capabilities?: JsonObject; clientInfo?: JsonObject } } | undefined)?.params;
      try {
        const record: SessionRecord = { sessionId, protocolVersion, clientCapabilities: params?.capabilities, principal, clientInfo: params?.clientInfo, owner: cluster.instanceId, expiresAt: 0 };
        await cluster.sessions.put(record, ttl);
        await run(sessionId);
        return undefined;
      } catch (error) {
        onError(error);
        end();
        return errorResponse(503, HttpErrorCode.Refused, 'Service Unavailable: the shared session store is unreachable', { headers: { 'retry-after': '1' } });
      }
    },
    unregister: (sessionId) => {
      const stop = relays.get(sessionId);
      // Never shared (its registration failed): no record of this instance to delete.
      if (stop === undefined) return;
      relays.delete(sessionId);
      // The record goes first: a relay that then reaches nobody finds no record to adopt. Only
      // this instance's record: an instance that stalled past its liveness must not delete the
      // record of the instance that adopted the session meanwhile.
      void Promise.resolve(cluster.sessions.get(sessionId))
        .then((record) => (record?.owner === cluster.instanceId ? cluster.sessions.delete(sessionId) : false))
        .then(() => stop())
        .catch(onError);
    },
    touch: (sessionId) => {
      void Promise.resolve(cluster.sessions.touch(sessionId, ttl)).catch(onError);
    },
    relay: async (sessionId, request, principal) => {
      // Twice at most: when another instance wins the adoption, relay to it.
      for (let attempt = 0; attempt < 2; attempt++) {
        const record = await cluster.sessions.get(sessionId);
        // Another principal's session is not relayed (nor adopted); the owner would refuse it too.
        if (record === undefined || record.principal !== principal) return undefined;
        if (record.owner === cluster.instanceId) {
          // Adopted here by a concurrent request: serve it once the session's machine is up.
          await adopting.get(sessionId);
          return undefined;
        }
        if (liveness?.knownDead(record.owner) !== true) {
          const watch = liveness === undefined ? undefined : (onLost: (loss: OwnerLoss) => void) => liveness.watch(record.owner, onLost);
          const relayed = await relayRequest(cluster.bus, sessionId, request, watch);
          if (relayed !== undefined) return relayed;
        }
        // Nobody serves the session: its owner died. Adopt it, then serve the request here.
        const adopted = await adopt(record);
        if (adopted === undefined) return undefined;
        if (adopted) {
          const init: RequestInit = { method: request.method, headers: withoutHopByHop(request.headers) };
          if (request.signal !== undefined) init.signal = request.signal;
          if (request.body !== undefined) init.body = request.body;
          return serve(readmitted(new Request(request.url, init)));
        }
      }
      return undefined;
    },
    leave: async () => {
      await liveness?.stop();
    },
  };
}

/**
 * Relays `inbound` (of `principal`) when it names a session that another instance runs;
 * `undefined` when this instance should answer it (its own session, no session header, or a
 * session unknown everywhere or bound to another principal: answered 404 here).
 * A legacy HTTP+SSE POST (`legacyMessage`) names its session in `?sessionId=` like `/messages` reads it.
 */
export async function relayToOwner(
  cluster: ClusterMembership,
  inbound: InboundRequest,
  maxBody: number,
  ownsSession: (id: string) => boolean,
  principal: string | undefined,
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
  const response = await cluster.relay(sessionId, { method: inbound.method, url: inbound.toRequest().url, headers: inbound.headerRecord(), body, signal: inbound.signal }, principal);
  // Known nowhere (or the owner is gone): a body was read, so answer here rather than fall through.
  return response ?? (body === undefined ? undefined : errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found'));
}
