/**
 * Any instance serves any request of a stateful session (scale-out, issue 15): an instance that
 * receives a request for a session another instance runs relays it over the {@link MessageBus}
 * to that instance (the record's `owner` in the {@link SessionStore}), which serves it exactly as
 * if it had arrived there and streams the HTTP answer back.
 *
 * ```
 *  client ──HTTP──▶ B ── publish session:<id> {request} ──────▶ A (runs the session's machine)
 *                   B ◀── publish instance:B {head, chunk…, end} ── A.handleFetch(request)
 *                   B ── publish instance:A {abort} ──────────▶ A   (client went away)
 * ```
 *
 * (the wire is `relay-exchange.ts`). What it costs per request:
 *
 * - a request of a stateless revision (MCP 2026-07-28), or any request of a server in stateless
 *   mode, names no session and needs no owner: it is served where it arrives, never relayed, and
 *   reads or writes no record;
 * - B remembers the owner and principal of the sessions it relayed (a record's principal never
 *   changes; its owner changes only when the owner dies), so a relay costs one publish; a relay
 *   that reaches nobody reads the record again before adopting anything;
 * - the owner restarts the record's time to live lazily (`recordRefresh`): the record lives
 *   1.5 × the idle timeout and is refreshed when a request finds half the idle timeout elapsed
 *   since the last refresh, so it outlives the session's last use by between one and one and a
 *   half idle timeouts. The owner ends an idle session itself (and deletes its record); the
 *   record's expiry matters only when the owner died.
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
 *
 * With `replicas`, an instance serves a POST of requests for a session it does not run itself,
 * on a replica of the session, and relays only what needs the instance holding some state
 * (`cluster-replicas.ts`).
 */
import { ErrorCode, type Clock, type JsonObject } from '@statemcp/protocol';
import { DEFAULT_LIVENESS_TTL_MS, livenessWatch, type LivenessWatch, type OwnerLoss } from './cluster-failover.js';
import { HttpErrorCode, errorResponse, type HttpAnswer } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { SESSION_ID_HEADER } from './server-options.js';
import { RelayExchange, withoutHopByHop, type RelayRequest } from './relay-exchange.js';
import { relayedInbound } from './relayed-inbound.js';
import { ClusterReplicas, postRoute, replicaMessage, streamWriter } from './cluster-replicas.js';
import type { HttpServerSessionTransport } from './session-transport.js';
import type { JsonRpcMessage } from '@statemcp/protocol';
import { busChannel, type LivenessStore, type MessageBus, type SessionRecord, type SessionStore } from './shared-state.js';

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
  /**
   * How the owner restarts the time to live of its sessions' records. `'lazy'` (the default):
   * the record lives 1.5 × the idle timeout and is refreshed once half the idle timeout has
   * passed since the last refresh, so most requests write nothing, and a record whose owner died
   * outlives the session's last use by one to one and a half idle timeouts. `'every-request'`:
   * the record lives the idle timeout and every request refreshes it (a store whose writes cost
   * no round trip, such as a Durable Object's storage, or one that must expire exactly).
   */
  recordRefresh?: 'lazy' | 'every-request';
  /**
   * Serve a session's POSTs of requests on whichever instance receives them, on a replica of the
   * session built from its record, instead of relaying them to the instance running it; only the
   * client's answers to server-to-client requests, notifications, streams, resumptions and DELETE
   * travel (`cluster-replicas.ts`). What handlers keep per session in memory is then not shared
   * between instances. Default false.
   */
  replicas?: boolean;
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
  /**
   * Settles once the record of a session {@link unregister}ed here is deleted (or its deletion
   * failed and was reported): a DELETE is answered after it, so no instance finds the record of a
   * session its client was told is gone.
   */
  unregistered(sessionId: string): Promise<void>;
  /** The session was used: restarts the record's time to live when half the idle timeout has passed since the last time. */
  touch(sessionId: string): void;
  /** This instance's replicas (`replicas` on), else `undefined`. */
  readonly replicas: ClusterReplicas | undefined;
  /**
   * Where a POST (its `messages`, of `principal`) goes when this instance does not run the
   * session, or carries an answer for a replica on another instance (`owned`: it runs the
   * session): `undefined` to serve it here (on a replica, now built), else the relayed answer.
   */
  routePost(sessionId: string, messages: readonly JsonRpcMessage[], request: RelayRequest, principal: string | undefined, owned: boolean): Promise<HttpAnswer | undefined>;
  /**
   * A resumption (`Last-Event-ID`) of a stream a replica on instance `writer` wrote: `undefined`
   * to serve it here (this instance is `writer`: on its replica, rebuilt if it ended), else the
   * answer relayed to `writer`, or to the owner when `writer` is gone.
   */
  resume(sessionId: string, writer: string, request: RelayRequest, principal: string | undefined, ownsSession: boolean): Promise<HttpAnswer | undefined>;
  /** The owner received notifications for a session that has replicas: they get them too. */
  notifyReplicas(sessionId: string, messages: readonly JsonRpcMessage[]): void;
  /**
   * Relays a request of `principal` for a session this instance does not run, or adopts the
   * session when its owner is dead and serves the request here; `undefined` when the session is
   * unknown everywhere or bound to another principal (it is not relayed: the answer is 404).
   */
  relay(sessionId: string, request: RelayRequest, principal: string | undefined): Promise<HttpAnswer | undefined>;
  /** How many requests this instance relayed and served for others, and sessions it adopted. */
  readonly stats: ClusterStats;
  /** Stops this instance's liveness beats and its relay channel (the server is closing). */
  leave(): Promise<void>;
}

/** Counters of one cluster member (`StreamableHttpServer.cluster`). */
export interface ClusterStats {
  /** Requests this instance relayed to the instance running their session. */
  readonly relayed: number;
  /** Requests other instances relayed here, for sessions this instance runs. */
  readonly served: number;
  /** Sessions this instance adopted from instances that died. */
  readonly adopted: number;
  /** Replicas of other instances' sessions this instance built (`replicas`). */
  readonly replicas: number;
}

/** What the cluster side needs from its server. */
export interface ClusterHost {
  /** The server's core: answers a request relayed here, or one it adopted a session for (`relayed-inbound.ts`). */
  serve: (inbound: InboundRequest) => Promise<HttpAnswer>;
  /**
   * Rebuilds the connection of a session this instance has just claimed from a dead owner
   * (`from`); false when it could not (the claim is then undone by deleting the record).
   */
  adopt: (record: SessionRecord, from: string) => Promise<boolean>;
  /** True when this instance runs the session (its connection is in the server's session manager). */
  runs: (sessionId: string) => boolean;
  onError: (error: unknown) => void;
  clock: Clock;
  /** A replica on another instance used the session: it stays alive here (its idle timer restarts). */
  active: (sessionId: string) => void;
  /** Sends on the session's own transport what a replica sent unrelated to a request (its GET stream is here). */
  forward: (sessionId: string, message: JsonRpcMessage) => void;
  /** Builds and connects a replica's transport for `record` (`replicas`); `undefined` when it could not. */
  replica: (record: SessionRecord, tag: string, forward: (message: JsonRpcMessage) => void) => Promise<HttpServerSessionTransport | undefined>;
  /** How many replicas this instance may hold at once. */
  maxReplicas: number;
}

/** Owners remembered by a relaying instance; past this many the oldest are forgotten. */
const REMEMBERED_OWNERS = 10_000;

/** Builds the {@link ClusterMembership} of a server whose core is `serve`; `idleMs` is its session idle timeout. */
export function joinCluster(cluster: ClusterOptions, idleMs: number, host: ClusterHost): ClusterMembership {
  const { serve, onError, clock } = host;
  const idle = Number.isFinite(idleMs) ? idleMs : 24 * 60 * 60_000;
  const lazy = cluster.recordRefresh !== 'every-request';
  const recordTtl = lazy ? Math.ceil(idle * 1.5) : idle;
  const exchange = new RelayExchange(cluster.bus, cluster.instanceId, clock, onError, serve);
  const relays = new Map<string, () => Promise<void>>();
  /** When this instance last (re)started the record of each session it runs, by the clock. */
  const refreshed = new Map<string, number>();
  /** Owner and principal of sessions this instance relayed to, by session id. */
  const owners = new Map<string, SessionRecord>();
  let adopted = 0;
  /** Sessions run here that a replica announced itself for: their notifications are published to replicas. */
  const replicated = new Set<string>();
  /** Sessions ended here whose record is being deleted: {@link ClusterMembership.unregistered}. */
  const unregistering = new Map<string, Promise<void>>();
  const replicas =
    cluster.replicas !== true
      ? undefined
      : new ClusterReplicas({ instanceId: cluster.instanceId, bus: cluster.bus, sessions: cluster.sessions, idleMs: idle, maxReplicas: host.maxReplicas, clock, onError, build: host.replica });
  const liveness: LivenessWatch | undefined =
    cluster.liveness === undefined ? undefined : livenessWatch(cluster.liveness, cluster.instanceId, cluster.livenessTtlMs ?? DEFAULT_LIVENESS_TTL_MS, clock, onError);
  /** This instance now runs the session: serve its relayed requests, and beat. */
  const run = async (sessionId: string): Promise<void> => {
    refreshed.set(sessionId, clock.now());
    relays.set(
      sessionId,
      await exchange.serveSession(sessionId, (note) => {
        replicated.add(sessionId);
        if (note.kind === 'active') host.active(sessionId);
        else host.forward(sessionId, note.message);
      }),
    );
    liveness?.beat();
  };
  const remember = (record: SessionRecord): void => {
    if (owners.size >= REMEMBERED_OWNERS) owners.delete(owners.keys().next().value as string);
    owners.set(record.sessionId, record);
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
    const claimed = await cluster.sessions.claim(record.sessionId, record.owner, cluster.instanceId, recordTtl);
    if (claimed === undefined) return false;
    if (!(await host.adopt(claimed, record.owner))) {
      await cluster.sessions.delete(record.sessionId);
      return undefined;
    }
    await run(record.sessionId);
    adopted++;
    return true;
  };
  /** The record of a session this instance does not run: remembered, else read (and remembered). */
  const recordOf = async (sessionId: string): Promise<{ record: SessionRecord | undefined; fresh: boolean }> => {
    const known = owners.get(sessionId);
    if (known !== undefined) return { record: known, fresh: false };
    const record = await cluster.sessions.get(sessionId);
    if (record !== undefined) remember(record);
    return { record, fresh: true };
  };
  /** Serves a request of a session this instance now runs, from the parts already read. */
  const serveHere = (request: RelayRequest): Promise<HttpAnswer> => {
    const parts = { method: request.method, url: request.url, headers: withoutHopByHop(request.headers), body: request.body };
    return serve(relayedInbound(parts, request.client));
  };
  const relay = async (sessionId: string, request: RelayRequest, principal: string | undefined): Promise<HttpAnswer | undefined> => {
    // Twice at most with a record read from the store: when another instance wins the adoption, relay to it.
    for (let reads = 0; reads < 2; ) {
      const { record, fresh } = await recordOf(sessionId);
      if (fresh) reads++;
      // Another principal's session is not relayed (nor adopted); the owner would refuse it too.
      if (record === undefined || record.principal !== principal) return undefined;
      if (record.owner === cluster.instanceId) {
        // Adopted here by a concurrent request (a client's GET reconnect may reach a new
        // incarnation just ahead of its next POST): serve it once the session's machine is up.
        owners.delete(sessionId);
        await adopting.get(sessionId);
        // A POST's body is read already, so it cannot go back to the caller: it is served here.
        return request.body !== undefined && host.runs(sessionId) ? serveHere(request) : undefined;
      }
      if (liveness?.knownDead(record.owner) !== true) {
        const watch = liveness === undefined ? undefined : (onLost: (loss: OwnerLoss) => void) => liveness.watch(record.owner, onLost);
        const relayed = await exchange.relay(sessionId, record.owner, request, ownerLostResponse, watch);
        if (relayed !== undefined) return relayed;
      }
      owners.delete(sessionId);
      // A remembered owner may be stale (the session ended, or moved): read the record before adopting.
      if (!fresh) continue;
      // Nobody serves the session: its owner died. Adopt it, then serve the request here.
      const adoption = await adopt(record);
      if (adoption === undefined) return undefined;
      if (adoption) return serveHere(request);
    }
    return undefined;
  };
  /**
   * Relays a request to `instance`, which holds a replica of the session (the client's answer to
   * a request the replica sent, a stream it wrote); `undefined` when that instance is gone.
   */
  const relayDirect = async (sessionId: string, instance: string, request: RelayRequest, principal: string | undefined): Promise<HttpAnswer | undefined> => {
    const { record } = await recordOf(sessionId);
    if (record === undefined || record.principal !== principal || liveness?.knownDead(instance) === true) return undefined;
    const watch = liveness === undefined ? undefined : (onLost: (loss: OwnerLoss) => void) => liveness.watch(instance, onLost);
    return exchange.relay(sessionId, instance, request, ownerLostResponse, watch, true);
  };
  /**
   * True when this instance serves the session's request itself: its replica exists or was just
   * built. A replica is built from the record as it is now (never a remembered one: the session
   * may have ended); unknown, another principal's (404 here, as on the owner), or adopted here: false.
   */
  const replicaHere = async (sessionId: string, principal: string | undefined): Promise<boolean> => {
    if (replicas === undefined) return false;
    if (replicas.has(sessionId)) return replicas.get(sessionId)?.principal === principal;
    const record = await cluster.sessions.get(sessionId);
    if (record !== undefined) remember(record);
    if (record === undefined || record.principal !== principal || record.owner === cluster.instanceId) return false;
    // A replica's instance takes the answers to the requests it sends, and resumptions of its streams, on its own channel.
    await exchange.listen();
    return replicas.ensure(record);
  };
  return {
    register: async (sessionId, protocolVersion, initialize, principal, end) => {
      const params = (initialize as { params?: { capabilities?: JsonObject; clientInfo?: JsonObject } } | undefined)?.params;
      try {
        const record: SessionRecord = { sessionId, protocolVersion, clientCapabilities: params?.capabilities, principal, clientInfo: params?.clientInfo, owner: cluster.instanceId, expiresAt: 0 };
        await cluster.sessions.put(record, recordTtl);
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
      refreshed.delete(sessionId);
      replicated.delete(sessionId);
      // Every replica ends with the session (MCP 2025-11-25, Transports §Session Management: a
      // terminated session answers 404 wherever the request lands).
      if (replicas !== undefined) void Promise.resolve(cluster.bus.publish(busChannel.replicas(sessionId), replicaMessage({ kind: 'end' }))).catch(onError);
      // The record goes first: a relay that then reaches nobody finds no record to adopt. Only
      // this instance's record: an instance that stalled past its liveness must not delete the
      // record of the instance that adopted the session meanwhile.
      const removed = Promise.resolve(cluster.sessions.get(sessionId))
        .then((record) => (record?.owner === cluster.instanceId ? cluster.sessions.delete(sessionId) : false))
        .then(() => undefined, onError);
      unregistering.set(sessionId, removed);
      // The relay subscription ends whether or not the record could be deleted.
      void removed.then(() => {
        if (unregistering.get(sessionId) === removed) unregistering.delete(sessionId);
        return stop();
      }).catch(onError);
    },
    unregistered: (sessionId) => unregistering.get(sessionId) ?? Promise.resolve(),
    touch: (sessionId) => {
      const last = refreshed.get(sessionId);
      if (last === undefined && replicas?.has(sessionId) === true) {
        replicas.used(sessionId);
        return;
      }
      const now = clock.now();
      if (lazy && last !== undefined && now - last < idle / 2) return;
      refreshed.set(sessionId, now);
      void Promise.resolve(cluster.sessions.touch(sessionId, recordTtl)).catch(onError);
    },
    relay,
    replicas,
    routePost: async (sessionId, messages, request, principal, owned) => {
      const route = postRoute(messages);
      if (route.kind === 'instance' && route.instance !== cluster.instanceId) {
        const relayed = await relayDirect(sessionId, route.instance, request, principal);
        if (relayed !== undefined) return relayed;
      }
      if (owned) return undefined;
      if (route.kind === 'replica' && (await replicaHere(sessionId, principal))) return undefined;
      if (route.kind === 'instance' && route.instance === cluster.instanceId && replicas?.has(sessionId) === true) return undefined;
      return relay(sessionId, request, principal);
    },
    resume: async (sessionId, writer, request, principal, ownsSession) => {
      if (writer === cluster.instanceId) return (await replicaHere(sessionId, principal)) || ownsSession ? undefined : relay(sessionId, request, principal);
      const relayed = await relayDirect(sessionId, writer, request, principal);
      // The writer is gone (its requests with it): the owner replays the stream and ends them.
      return relayed ?? (ownsSession ? undefined : relay(sessionId, request, principal));
    },
    notifyReplicas: (sessionId, messages) => {
      if (!replicated.has(sessionId) || messages.length === 0) return;
      void Promise.resolve(cluster.bus.publish(busChannel.replicas(sessionId), replicaMessage({ kind: 'notify', messages }))).catch(onError);
    },
    stats: {
      get relayed() {
        return exchange.counts.relayed;
      },
      get served() {
        return exchange.counts.served;
      },
      get adopted() {
        return adopted;
      },
      get replicas() {
        return replicas?.built ?? 0;
      },
    },
    leave: async () => {
      replicas?.close();
      await liveness?.stop();
      await exchange.close();
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
  streamIdOf?: (eventId: string) => string | undefined,
): Promise<HttpAnswer | undefined> {
  const sessionId = (legacyMessage ? inbound.searchParams.get('sessionId') : undefined) ?? inbound.header(SESSION_ID_HEADER);
  if (sessionId === undefined || sessionId === '') return undefined;
  if (cluster.replicas !== undefined && !legacyMessage) {
    // With replicas, a POST is routed once its messages are read (`routePost`), a resumption by who wrote its stream.
    if (inbound.method === 'POST') return undefined;
    const lastEventId = inbound.method === 'GET' ? inbound.header('last-event-id') : undefined;
    const writer = lastEventId === undefined || lastEventId === '' ? undefined : streamWriter(sessionId, streamIdOf?.(lastEventId));
    if (writer !== undefined) return cluster.resume(sessionId, writer, relayRequestOf(inbound, undefined), principal, ownsSession(sessionId));
  }
  if (ownsSession(sessionId)) return undefined;
  let body: string | undefined;
  if (inbound.method === 'POST') {
    const read = await inbound.readBody(maxBody);
    if (!read.ok) return read.tooLarge ? errorResponse(413, ErrorCode.InvalidRequest, 'Payload Too Large') : errorResponse(400, ErrorCode.ParseError, `Parse error: ${read.reason}`);
    body = 'text' in read ? read.text : JSON.stringify(read.parsed);
  }
  const response = await cluster.relay(sessionId, relayRequestOf(inbound, body), principal);
  // Known nowhere (or the owner is gone): a body was read, so answer here rather than fall through.
  return response ?? (body === undefined ? undefined : errorResponse(404, HttpErrorCode.SessionNotFound, 'Session not found'));
}

/** The parts of `inbound` (with its `body`, already read) that a relay carries. */
export function relayRequestOf(inbound: InboundRequest, body: string | undefined): RelayRequest {
  return { method: inbound.method, url: inbound.requestInfo().url, headers: inbound.headerRecord(), body, client: inbound };
}
