/**
 * The wire of the cluster relay (`cluster-relay.ts`): how one instance hands a request of a
 * session to the instance that runs it over the {@link MessageBus}, and how the answer comes back.
 *
 * ```
 *  B (receives the request)                                A (runs the session)
 *  publish session:<id>   {request, relay, replyTo: B} ──▶ serve(request)
 *  instance:B ◀── {frames: [head, chunk…]}                   (frames produced in one turn of the
 *  instance:B ◀── {frames: [chunk…, end]}                     event loop travel as one message)
 *  publish instance:A     {abort, relay}  ──────────────▶ the client went away: cancel the answer
 * ```
 *
 * A request for a replica (`cluster-replicas.ts`: the client's answer to a request it sent, a
 * resumed stream it wrote) is published on that instance's own channel instead of the session's.
 * A replica tells the owner on the session channel that the session is in use (`active`).
 *
 * Each instance subscribes its own `instance:<id>` channel once, so a relayed request costs one
 * publish from B and one or two from A (a JSON answer: one), with no subscribe or unsubscribe of
 * its own and no wait between the frames of one answer. The session channel is subscribed only
 * by the instance running the session, so a publish that reaches nobody says the owner is gone.
 */
import type { Clock, JsonRpcMessage, TimerHandle } from '@statemcp/protocol';
import type { OwnerLoss } from './cluster-failover.js';
import { TextAnswer, toResponse, unreadBodyText, type HttpAnswer } from './http-response.js';
import type { InboundRequest } from './inbound.js';
import { RelayedClient, relayedInbound, type ClientPresence } from './relayed-inbound.js';
import { SseConnection } from './sse-connection.js';
import type { MessageBus } from './shared-state.js';
import { busChannel } from './shared-state.js';

/** A relayed request, as published on the owner's session channel. */
interface RelayedRequest {
  readonly kind: 'request';
  readonly relay: string;
  /** The instance whose `instance:` channel takes the answer. */
  readonly replyTo: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string | undefined;
}

type RelayFrame =
  | { readonly kind: 'head'; readonly status: number; readonly headers: [string, string][] }
  | { readonly kind: 'chunk'; readonly data: string }
  | { readonly kind: 'end' };

/** What travels on an instance's channel: frames of an answer it waits for, a relay to abort, or a request for one of its replicas. */
type InstanceMessage = { readonly kind: 'frames'; readonly relay: string; readonly frames: RelayFrame[] } | { readonly kind: 'abort'; readonly relay: string } | RelayedRequest;

/** What a replica tells the owner on the session's channel: the session is in use, or a message for its GET stream. */
export type ReplicaNote = { readonly kind: 'active' } | { readonly kind: 'forward'; readonly message: JsonRpcMessage };

/** What travels on a session's channel: a relayed request, or a replica's note. */
type SessionMessage = RelayedRequest | ReplicaNote;

/** One request to relay: the parts of an HTTP request that travel. */
export interface RelayRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  /** The request's client: the relay is aborted when it goes away. */
  readonly client: ClientPresence | undefined;
}

/** Hop-by-hop headers never relayed. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'upgrade']);

export function withoutHopByHop(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name in headers) if (!HOP_BY_HOP.has(name)) kept[name] = headers[name] as string;
  return kept;
}

/** The headers of a relayed answer's head, without the hop-by-hop ones. */
function relayedHeaders(head: { readonly headers: readonly [string, string][] }): Headers {
  const headers = new Headers();
  for (const [name, value] of head.headers) if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, value);
  return headers;
}

const encoder = new TextEncoder();

/** Statuses whose answer has no body (RFC 9110 §15.3.5, §15.4.5). */
const nullBodyStatus = (status: number): boolean => status === 204 || status === 304;

/** How long an answer's head waits for its first chunk before it is published alone, ms. */
const HEAD_WAIT_MS = 20;

/** Runs `flush` once the current turn of the event loop is over (frames produced together travel together). */
const afterThisTurn: (flush: () => void) => void =
  typeof globalThis.setImmediate === 'function' ? (flush) => void globalThis.setImmediate(flush) : (flush) => void globalThis.setTimeout(flush, 0);

/** How many relays this instance sent and served (`StreamableHttpServer.cluster`). */
export interface RelayCounts {
  /** Requests this instance relayed to the instance running their session. */
  relayed: number;
  /** Requests another instance relayed here, served for a session this instance runs. */
  served: number;
}

/** The relay wire of one instance: its `instance:` channel, the relays it waits on and the ones it serves. */
export class RelayExchange {
  readonly counts: RelayCounts = { relayed: 0, served: 0 };
  readonly #bus: MessageBus;
  readonly #instanceId: string;
  readonly #clock: Clock;
  readonly #onError: (error: unknown) => void;
  readonly #serve: (inbound: InboundRequest) => Promise<HttpAnswer>;
  /** Relays this instance waits on, by relay id: what to do with their frames. */
  readonly #waiting = new Map<string, (frames: readonly RelayFrame[]) => void>();
  /** Relayed requests this instance is answering, by relay id. */
  readonly #answering = new Map<string, RelayedClient>();
  #listening: Promise<() => Promise<void>> | undefined;

  /** `serve` is the server's core, which answers the requests relayed here (`relayed-inbound.ts`). */
  constructor(bus: MessageBus, instanceId: string, clock: Clock, onError: (error: unknown) => void, serve: (inbound: InboundRequest) => Promise<HttpAnswer>) {
    this.#bus = bus;
    this.#serve = serve;
    this.#clock = clock;
    this.#instanceId = instanceId;
    this.#onError = onError;
  }

  /** Subscribes this instance's channel (once; again after a failed attempt). */
  listen(): Promise<unknown> {
    this.#listening ??= this.#bus.subscribe(busChannel.instance(this.#instanceId), (payload) => this.#receive(payload));
    this.#listening.catch(() => {
      this.#listening = undefined;
    });
    return this.#listening;
  }

  #receive(payload: string): void {
    const message = JSON.parse(payload) as InstanceMessage;
    if (message.kind === 'abort') this.#answering.get(message.relay)?.leave();
    else if (message.kind === 'frames') this.#waiting.get(message.relay)?.(message.frames);
    else this.#serveRelayed(message);
  }

  #serveRelayed(message: RelayedRequest): void {
    this.counts.served++;
    void this.#answer(message, this.#serve).catch(this.#onError);
  }

  /**
   * Serves the relayed requests of session `sessionId` (which this instance runs); `onNote`
   * hears its replicas. Resolves with the unsubscribe function.
   */
  async serveSession(sessionId: string, onNote: (note: ReplicaNote) => void): Promise<() => Promise<void>> {
    await this.listen();
    return this.#bus.subscribe(busChannel.session(sessionId), (payload) => {
      const message = JSON.parse(payload) as SessionMessage;
      if (message.kind === 'request') this.#serveRelayed(message);
      else onNote(message);
    });
  }

  async #answer(message: RelayedRequest, serve: (inbound: InboundRequest) => Promise<HttpAnswer>): Promise<void> {
    const client = new RelayedClient();
    this.#answering.set(message.relay, client);
    const channel = busChannel.instance(message.replyTo);
    const batch: RelayFrame[] = [];
    const sent: Promise<unknown>[] = [];
    let scheduled = false;
    let headWait: TimerHandle | undefined;
    // Publishes are issued in order on one connection and not awaited one by one: the frames keep their order.
    const flush = (): void => {
      scheduled = false;
      if (headWait !== undefined) this.#clock.clearTimeout(headWait);
      headWait = undefined;
      if (batch.length === 0) return;
      const frames: InstanceMessage = { kind: 'frames', relay: message.relay, frames: batch.splice(0) };
      const published = Promise.resolve(this.#bus.publish(channel, JSON.stringify(frames)));
      // Handled at once (it may fail while the answer still streams, long before the wait below;
      // unhandled, it would end the process). A lost frame ends the answer: the relaying instance
      // could not read the frames after it in order (the bus delivers at most once), so the
      // request is cancelled as if its client had gone; the error is reported when the answer ends.
      published.catch(() => client.leave());
      sent.push(published);
    };
    const push = (frame: RelayFrame): void => {
      batch.push(frame);
      if (scheduled) return;
      scheduled = true;
      afterThisTurn(flush);
    };
    // The head waits for the first chunk (an SSE answer's priming event follows within a round
    // trip), so both travel in one publish; a stream with nothing to say yet gets it alone.
    const waitHead = (): void => {
      if (!scheduled) headWait = this.#clock.setTimeout(flush, HEAD_WAIT_MS);
    };
    try {
      // Admitted by the relaying instance already (its DPoP proof is in the replay set).
      const answer = await serve(relayedInbound(message, client));
      if (answer instanceof SseConnection) {
        // The connection's blocks go to the bus as they are written: no web stream, no bytes to decode.
        batch.push({ kind: 'head', status: 200, headers: Object.entries(answer.headers) });
        await new Promise<void>((resolve, reject) => {
          const cancelled = answer.pipeTo({ write: (data) => push({ kind: 'chunk', data }), end: resolve, fail: reject });
          client.onClientGone(() => {
            cancelled();
            resolve();
          });
          waitHead();
        });
      } else {
        await this.#streamResponse(toResponse(answer), batch, push, client, waitHead);
      }
      batch.push({ kind: 'end' });
      flush();
      await Promise.all(sent);
    } finally {
      if (headWait !== undefined) this.#clock.clearTimeout(headWait);
      this.#answering.delete(message.relay);
    }
  }

  /** Frames a web `Response`'s head and body: its text at once when it is known, else chunk by chunk. */
  async #streamResponse(
    response: Response,
    batch: RelayFrame[],
    push: (frame: RelayFrame) => void,
    client: ClientPresence,
    waitHead: () => void,
  ): Promise<void> {
    batch.push({ kind: 'head', status: response.status, headers: [...response.headers] });
    const text = unreadBodyText(response);
    if (text !== undefined) {
      if (text !== '') batch.push({ kind: 'chunk', data: text });
      return;
    }
    waitHead();
    if (response.body === null) return;
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    client.onClientGone(() => void reader.cancel().catch(() => undefined));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const data = decoder.decode(value, { stream: true });
      if (data !== '') push({ kind: 'chunk', data });
    }
  }

  /**
   * Relays one request to `owner`, the instance running session `sessionId`, and resolves with
   * the answer (whole, or streamed as it comes); `undefined` when no instance serves the session any
   * more. `watchOwner` ends the wait when the owner is found dead (`cluster-failover.ts`); the
   * answer is then `lost(loss)` if no head had come yet. `direct`: `owner` is the instance of a
   * replica, reached on its own channel.
   */
  async relay(
    sessionId: string,
    owner: string,
    request: RelayRequest,
    lost: (loss: OwnerLoss) => Response,
    watchOwner?: (onLost: (loss: OwnerLoss) => void) => () => void,
    direct = false,
  ): Promise<HttpAnswer | undefined> {
    await this.listen();
    const relay = globalThis.crypto.randomUUID();
    /** The streamed body's controller, once a head arrived without its end. */
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    let resolveHead!: (answer: HttpAnswer) => void;
    const head = new Promise<HttpAnswer>((resolve) => {
      resolveHead = resolve;
    });
    let finished = false;
    let headSeen = false;
    let stopWatch: (() => void) | undefined = undefined;
    const finish = (aborted: boolean): void => {
      if (finished) return;
      finished = true;
      stopWatch?.();
      this.#waiting.delete(relay);
      if (aborted) {
        const abort: InstanceMessage = { kind: 'abort', relay };
        void Promise.resolve(this.#bus.publish(busChannel.instance(owner), JSON.stringify(abort))).catch(() => undefined);
      }
    };
    this.#waiting.set(relay, (frames) => {
      const first = frames[0];
      if (first?.kind === 'head' && frames[frames.length - 1]?.kind === 'end') {
        // The whole answer in one message (a JSON answer, or an SSE answer complete within a turn
        // of the owner's event loop): one body of known length, written in one go instead of a
        // head, a write per chunk and a chunked end.
        headSeen = true;
        let text = '';
        for (const frame of frames) if (frame.kind === 'chunk') text += frame.data;
        resolveHead(
          nullBodyStatus(first.status)
            ? new Response(null, { status: first.status, headers: relayedHeaders(first) })
            : new TextAnswer(first.status, first.headers.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())), text),
        );
        finish(false);
        return;
      }
      for (const frame of frames) {
        switch (frame.kind) {
          case 'head': {
            headSeen = true;
            const body = nullBodyStatus(frame.status)
              ? null
              : new ReadableStream<Uint8Array>({
                  start: (c) => {
                    controller = c;
                  },
                  cancel: () => finish(true),
                });
            resolveHead(new Response(body, { status: frame.status, headers: relayedHeaders(frame) }));
            break;
          }
          case 'chunk':
            controller?.enqueue(encoder.encode(frame.data));
            break;
          case 'end':
            controller?.close();
            finish(false);
            break;
        }
      }
    });
    // Once finished, a later call is a no-op: nothing to remove.
    request.client?.onClientGone(() => finish(true));
    const message: RelayedRequest = { kind: 'request', relay, replyTo: this.#instanceId, method: request.method, url: request.url, headers: withoutHopByHop(request.headers), body: request.body };
    let reached: number | undefined;
    try {
      reached = await this.#bus.publish(direct ? busChannel.instance(owner) : busChannel.session(sessionId), JSON.stringify(message));
    } catch (error) {
      finish(false);
      throw error;
    }
    if (reached === 0) {
      finish(false);
      return undefined;
    }
    this.counts.relayed++;
    stopWatch = watchOwner?.((loss) => {
      if (finished) return;
      if (headSeen) {
        // The answer was streaming: end it; an SSE client resumes it with Last-Event-ID on the adopter.
        try {
          controller?.close();
        } catch {
          // already closed or cancelled
        }
      } else {
        resolveHead(lost(loss));
      }
      finish(false);
    });
    return head;
  }

  /** Unsubscribes this instance's channel (the server is closing). */
  async close(): Promise<void> {
    const listening = this.#listening;
    this.#listening = undefined;
    if (listening !== undefined) await (await listening.catch(() => async () => undefined))();
  }
}
