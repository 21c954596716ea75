/**
 * Replicas (scale-out, `cluster.replicas`): an instance that receives a plain request of a
 * stateful session another instance runs serves it itself, on a replica of the session built
 * from the shared record straight into Operating (protocol `sessionAdopted`, as failover does),
 * without claiming the session. Only what needs the instance holding some state travels:
 *
 * ```
 *  POST, requests only                  → served here, on the replica (built at first use)
 *  POST with the client's answer to a   → the instance named in the answered id: a replica tags
 *    server-to-client request             the ids of the requests it sends (`@<n>:<instance>:<id>`)
 *  POST of notifications (cancelled,    → the owner, which delivers them and, when the session has
 *    progress, roots/list_changed…)       replicas, publishes them on `replicas:<id>`: each replica
 *                                         delivers them too (an unknown request id is ignored)
 *  GET + Last-Event-ID of a replica's   → the instance named in the stream id (the replica's
 *    stream                               stream ids carry the same tag); nobody there: the owner
 *  GET, DELETE, the rest                → the owner, as without replicas
 *  the session ends on its owner        → `end` on `replicas:<id>`: every replica ends
 *  a replica is used                    → at most every half idle timeout: `active` to the owner
 *                                         (which keeps the session and its record alive) and the
 *                                         record read again (gone or rebound: the replica ends)
 * ```
 *
 * Each replica runs the session's own connection machine, so the rules that apply on the owner
 * apply on it; its requests pass every check a direct request passes (Host, authentication, the
 * record's principal). What the server's handlers keep per session in their own memory is not
 * shared between the owner and the replicas (docs/guide/scale-out.md).
 */
import type { Clock, InboundContext, JsonRpcMessage, JsonRpcNotification, JsonRpcRequest, RequestId, SendOptions, TransportSink } from '@statemcp/protocol';
import type { HttpAnswer } from './http-response.js';
import type { AcceptedPost } from './session-transport.js';
import { HttpServerSessionTransport, type SessionTransportOptions } from './session-transport.js';
import { HttpSession } from './http-session.js';
import { SessionManager } from './session-manager.js';
import type { ReplicaNote } from './relay-exchange.js';
import { busChannel, type MessageBus, type SessionRecord, type SessionStore } from './shared-state.js';

/** The tag a replica on `instanceId` writes before its stream ids and the ids of the requests it sends. */
export function replicaTag(instanceId: string): string {
  return `@${instanceId.length}:${instanceId}:`;
}

/** The instance named by a {@link replicaTag} at `from` in `text`, or `undefined`. */
export function taggedInstance(text: string, from = 0): string | undefined {
  if (text.charCodeAt(from) !== 64 /* @ */) return undefined;
  const colon = text.indexOf(':', from + 1);
  const digits = text.slice(from + 1, colon);
  if (colon < 0 || !/^[1-9][0-9]{0,4}$/.test(digits)) return undefined;
  const end = colon + 1 + Number(digits);
  return text.charCodeAt(end) === 58 /* : */ ? text.slice(colon + 1, end) : undefined;
}

/** The instance that wrote the stream `streamId` of session `sessionId`, when a replica did. */
export function streamWriter(sessionId: string, streamId: string | undefined): string | undefined {
  const scope = `${sessionId.length}.${sessionId}.`;
  return streamId?.startsWith(scope) === true ? taggedInstance(streamId, scope.length) : undefined;
}

/** Where a POST of a session this instance does not run goes. */
export type PostRoute = { readonly kind: 'replica' } | { readonly kind: 'instance'; readonly instance: string } | { readonly kind: 'owner' };

/**
 * Requests only: served here, on a replica. An answer to a request a replica sent: that
 * replica's instance. Anything else (notifications, answers to the owner's requests, a mix): the owner.
 */
export function postRoute(messages: readonly JsonRpcMessage[]): PostRoute {
  let requests = 0;
  for (const message of messages) {
    if ('method' in message) {
      if ('id' in message) requests++;
      continue;
    }
    const instance = typeof message.id === 'string' ? taggedInstance(message.id) : undefined;
    if (instance !== undefined) return { kind: 'instance', instance };
  }
  return requests === messages.length ? { kind: 'replica' } : { kind: 'owner' };
}

/**
 * The transport of a replica: a session transport whose stream ids and server-to-client request
 * ids carry its instance's tag, and which takes back the client's answers to those ids.
 */
export class ReplicaSessionTransport extends HttpServerSessionTransport {
  readonly #tag: string;
  readonly #forward: ((message: JsonRpcMessage) => void) | undefined;

  /**
   * `forward` takes what the replica sends unrelated to a request (its cancellation of a request
   * it gave up on, a notification): the session's GET stream is the owner's, so it goes there.
   */
  constructor(options: SessionTransportOptions, tag: string, forward?: (message: JsonRpcMessage) => void) {
    super({ ...options, streamTag: tag });
    this.#tag = tag;
    this.#forward = forward;
  }

  #untag(id: RequestId): RequestId {
    if (typeof id !== 'string' || !id.startsWith(this.#tag)) return id;
    try {
      const original: unknown = JSON.parse(id.slice(this.#tag.length));
      return typeof original === 'string' || typeof original === 'number' ? original : id;
    } catch {
      return id;
    }
  }

  override start(sink: TransportSink): Promise<void> {
    const relayed: TransportSink = { onMessage: (value, context) => sink.onMessage(value, context), onClose: (info) => sink.onClose(info) };
    if (sink.onError !== undefined) relayed.onError = (error) => sink.onError?.(error);
    if (sink.onMalformed !== undefined) relayed.onMalformed = (text, reason) => sink.onMalformed?.(text, reason);
    if (sink.onUndeliverable !== undefined) relayed.onUndeliverable = (ids, error) => sink.onUndeliverable?.(ids.map((id) => this.#untag(id)), error);
    return super.start(relayed);
  }

  #tagged(id: RequestId): string {
    return `${this.#tag}${JSON.stringify(id)}`;
  }

  override send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (!('method' in message)) return super.send(message, options);
    const tagged = this.#taggedMessage(message);
    if (options?.relatedRequestId !== undefined || this.#forward === undefined || this.closed) return super.send(tagged, options);
    this.#forward(tagged);
    return Promise.resolve();
  }

  #taggedMessage(message: JsonRpcRequest | JsonRpcNotification): JsonRpcMessage {
    if ('id' in message) {
      // Its progress token too: the client's progress goes to every replica, and only this one knows it
      // (MCP 2025-11-25, basic/utilities/progress: the notification carries the request's token).
      const meta = message.params?.['_meta'] as { progressToken?: unknown } | undefined;
      const token = meta?.progressToken;
      if (typeof token !== 'string' && typeof token !== 'number') return { ...message, id: this.#tagged(message.id) };
      return { ...message, id: this.#tagged(message.id), params: { ...message.params, _meta: { ...meta, progressToken: this.#tagged(token) } } };
    }
    // The cancellation of a request this replica sent names it as the client knows it (MCP
    // 2025-11-25, basic/utilities/cancellation: `requestId` is the id of the request to cancel).
    const requestId = message.method === 'notifications/cancelled' ? message.params?.['requestId'] : undefined;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return message;
    return { ...message, params: { ...message.params, requestId: this.#tagged(requestId) } };
  }

  override acceptPost(post: AcceptedPost): Promise<HttpAnswer> {
    if (post.requestIds.length === post.messages.length) return super.acceptPost(post);
    return super.acceptPost({ ...post, messages: post.messages.map((message) => this.#untagged(message)) });
  }

  /** The client's answer to, or progress for, a request this replica sent, with the ids the session gave it. */
  #untagged(message: JsonRpcMessage): JsonRpcMessage {
    if (!('method' in message)) return message.id === null || message.id === undefined ? message : { ...message, id: this.#untag(message.id) };
    if (message.method !== 'notifications/progress' || 'id' in message) return message;
    const token = message.params?.['progressToken'];
    return typeof token === 'string' && token.startsWith(this.#tag) ? { ...message, params: { ...message.params, progressToken: this.#untag(token) } } : message;
  }
}

/** What travels on a session's `replicas:` channel. */
type ReplicaMessage = { readonly kind: 'end' } | { readonly kind: 'notify'; readonly messages: readonly JsonRpcMessage[] };

/** What the replicas of one instance need from the cluster and the server. */
export interface ReplicaParts {
  readonly instanceId: string;
  readonly bus: MessageBus;
  readonly sessions: SessionStore;
  readonly idleMs: number;
  readonly maxReplicas: number;
  readonly clock: Clock;
  readonly onError: (error: unknown) => void;
  /**
   * Builds and connects the transport of a replica of `record`'s session (tagged `tag`, handing
   * what it sends unrelated to a request to `forward`); `undefined` when it could not.
   */
  readonly build: (record: SessionRecord, tag: string, forward: (message: JsonRpcMessage) => void) => Promise<HttpServerSessionTransport | undefined>;
}

/** The replicas one instance holds, by session id. */
export class ClusterReplicas {
  /** Replicas built here so far (`StreamableHttpServer.cluster`). */
  built = 0;
  readonly tag: string;
  readonly #parts: ReplicaParts;
  /** Idle replicas end like idle sessions; at most `maxReplicas` of them. */
  readonly #manager: SessionManager<HttpSession>;
  readonly #subscriptions = new Map<string, Promise<() => Promise<void>>>();
  readonly #building = new Map<string, Promise<boolean>>();
  /** When each replica last told its owner it is in use, by the clock. */
  readonly #announced = new Map<string, number>();
  #closed = false;

  constructor(parts: ReplicaParts) {
    this.#parts = parts;
    this.tag = replicaTag(parts.instanceId);
    this.#manager = new SessionManager<HttpSession>({ idleTimeoutMs: parts.idleMs, maxSessions: parts.maxReplicas, maxSessionsPerPrincipal: Infinity, clock: parts.clock });
  }

  /** The replica of session `sessionId` on this instance, marked active. */
  get(sessionId: string): HttpSession | undefined {
    return this.#manager.get(sessionId);
  }

  has(sessionId: string): boolean {
    return this.#manager.peek(sessionId) !== undefined;
  }

  /** Builds the replica of `record`'s session here unless it exists; false when it could not be built. */
  ensure(record: SessionRecord): Promise<boolean> {
    if (this.has(record.sessionId)) return Promise.resolve(true);
    const pending = this.#building.get(record.sessionId);
    if (pending !== undefined) return pending;
    const building = this.#build(record).finally(() => this.#building.delete(record.sessionId));
    this.#building.set(record.sessionId, building);
    return building;
  }

  async #build(record: SessionRecord): Promise<boolean> {
    const { sessionId } = record;
    if (this.#closed || record.protocolVersion === undefined || !this.#manager.reserve(undefined)) return false;
    let transport: HttpServerSessionTransport | undefined;
    try {
      // Subscribed before the replica serves anything: a cancellation of its first request reaches it.
      const subscribed = Promise.resolve(this.#parts.bus.subscribe(busChannel.replicas(sessionId), (payload) => this.#receive(sessionId, payload)));
      this.#subscriptions.set(sessionId, subscribed);
      await subscribed;
      const forward = (message: JsonRpcMessage): void => {
        this.#tellOwner(sessionId, { kind: 'forward', message }).catch(this.#parts.onError);
      };
      transport = await this.#parts.build(record, this.tag, forward);
    } finally {
      if (transport === undefined || this.#closed) {
        this.#manager.release(undefined);
        this.#unsubscribe(sessionId);
      }
    }
    if (transport === undefined) return false;
    if (this.#closed) {
      await transport.terminate('local', { reason: 'server-closed' });
      return false;
    }
    this.#manager.add(sessionId, new HttpSession(transport, record.principal));
    this.built++;
    this.used(sessionId);
    return true;
  }

  #receive(sessionId: string, payload: string): void {
    const message = JSON.parse(payload) as ReplicaMessage;
    if (message.kind === 'end') {
      this.end(sessionId);
      return;
    }
    const transport = this.#manager.peek(sessionId)?.transport;
    if (!(transport instanceof HttpServerSessionTransport)) return;
    const context: InboundContext = { sessionId };
    const post: AcceptedPost = { messages: message.messages, requestIds: [], batch: false, mode: 'json', version: transport.protocolVersion ?? '', context, headers: {} };
    void transport.acceptPost(post).catch(this.#parts.onError);
  }

  /**
   * The replica served a request: at most once per half idle timeout, tells the owner the session
   * is in use and reads the record again; a replica whose record is gone or bound to another principal ends.
   */
  used(sessionId: string): void {
    const now = this.#parts.clock.now();
    const last = this.#announced.get(sessionId);
    if (last !== undefined && now - last < this.#parts.idleMs / 2) return;
    this.#announced.set(sessionId, now);
    const principal = this.#manager.peek(sessionId)?.principal;
    this.#tellOwner(sessionId, { kind: 'active' })
      .then(() => this.#parts.sessions.get(sessionId))
      .then((record) => {
        if (record === undefined || record.principal !== principal) this.end(sessionId);
      })
      .catch(this.#parts.onError);
  }

  /** Publishes `note` on the session's channel, which its owner serves (`relay-exchange.ts`). */
  #tellOwner(sessionId: string, note: ReplicaNote): Promise<unknown> {
    return Promise.resolve(this.#parts.bus.publish(busChannel.session(sessionId), JSON.stringify(note)));
  }

  /** Ends the replica of a session that ended everywhere (DELETE, idle end on its owner). */
  end(sessionId: string): void {
    this.#manager.delete(sessionId, 'deleted');
  }

  /** A replica's transport closed (whoever closed it): forget it here. */
  closed(transport: HttpServerSessionTransport): void {
    const sessionId = transport.sessionId;
    if (sessionId === undefined) return;
    if (this.#manager.peek(sessionId)?.transport === transport) this.#manager.forget(sessionId);
    if (!this.has(sessionId)) this.#unsubscribe(sessionId);
  }

  #unsubscribe(sessionId: string): void {
    const subscription = this.#subscriptions.get(sessionId);
    this.#subscriptions.delete(sessionId);
    this.#announced.delete(sessionId);
    if (subscription !== undefined) void subscription.then((stop) => stop()).catch(this.#parts.onError);
  }

  /** Ends every replica (the server is closing). */
  close(): void {
    this.#closed = true;
    this.#manager.close();
    for (const sessionId of [...this.#subscriptions.keys()]) this.#unsubscribe(sessionId);
  }
}

/** What an owner publishes to the replicas of a session: its end, or the notifications it received. */
export function replicaMessage(message: ReplicaMessage): string {
  return JSON.stringify(message);
}
