/**
 * A session transport's use of its {@link EventStore} when a client resumes a stream
 * (`GET` + `Last-Event-ID`) and when the session ends: replaying one stream's events after a
 * given id, writing them to the new connection, ending the requests of a stream whose instance
 * died, recording which requests a stream carries (cluster mode), and forgetting the session's
 * streams.
 */
import { ErrorCode, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { encodeSseEvent } from '../shared/sse-encode.js';
import type { EventStore, StoredEvent } from './event-store.js';
import type { HttpAnswer } from './http-response.js';
import { SseConnection } from './sse-connection.js';

/** The events stored after a `Last-Event-ID`, and whether older ones were evicted. */
export interface StreamReplay {
  readonly events: readonly StoredEvent[];
  readonly truncated: boolean;
}

/** Collects the events of `lastEventId`'s stream after it; undefined when the id is unknown or expired. */
export async function replayStream(store: EventStore, lastEventId: string): Promise<StreamReplay | undefined> {
  const events: StoredEvent[] = [];
  const result = await store.replayAfter(lastEventId, (event) => {
    events.push(event);
  });
  return result === undefined ? undefined : { events, truncated: result.truncated === true };
}

/** Writes replayed events to a connection, each with its stored id. */
export function writeReplayed(connection: SseConnection, events: readonly StoredEvent[]): void {
  for (const event of events) connection.write(encodeSseEvent({ id: event.id, data: JSON.stringify(event.message) }));
}

/**
 * Replays a stream that has already ended (its result was stored while the client was away,
 * or an instance that died wrote it) on `connection`, then closes it. The requests an
 * `inherited` stream left unanswered end with an error, stored once ({@link endUnanswered}).
 * Undefined when the id is unknown or expired.
 */
export async function replayEnded(store: EventStore, lastEventId: string, inherited: boolean, connection: SseConnection): Promise<StreamReplay | undefined> {
  const replay = await replayStream(store, lastEventId);
  if (replay === undefined) return undefined;
  writeReplayed(connection, replay.events);
  const streamId = store.streamIdOf(lastEventId);
  if (inherited && streamId !== undefined) writeReplayed(connection, await endUnanswered(store, streamId));
  connection.close();
  return replay;
}

/**
 * Resumes the standalone stream that an earlier instance of the session held (cluster failover, or a
 * Durable Object evicted and rebuilt): its events stored after `lastEventId`, then `open()` — the
 * session's own standalone stream, which carries on (MCP 2025-11-25, Transports §Listening for
 * Messages from the Server). Undefined when the id is unknown or expired.
 */
export async function continueStandalone(store: EventStore, lastEventId: string, open: () => HttpAnswer): Promise<HttpAnswer | undefined> {
  const replay = await replayStream(store, lastEventId);
  if (replay === undefined) return undefined;
  const answer = open();
  // Written now, ahead of the new stream's priming event (appended to the store first).
  if (answer instanceof SseConnection) writeReplayed(answer, replay.events);
  return answer;
}

/**
 * The id `message` gets on stream `streamId`, as a function the stream's write chain calls when
 * it reaches the message. With a store that keeps the call order of appends (`ordersAppends`) the
 * append starts now, beside the stream's earlier appends still in flight, so a request's events
 * share round trips instead of each waiting for the one before; otherwise it starts when called.
 */
export function appendInTurn(store: EventStore | undefined, streamId: string, message: JsonRpcMessage | undefined): () => Promise<string | undefined> {
  if (store === undefined) return () => Promise.resolve(undefined);
  if (store.ordersAppends !== true) return async () => store.append(streamId, message);
  const started = Promise.resolve().then(() => store.append(streamId, message));
  // Reported where the chain awaits it; never an unhandled rejection meanwhile.
  started.catch(() => undefined);
  return () => started;
}

/**
 * Cluster mode: records which requests a new POST stream carries, so an instance adopting the
 * session after this one died can end them (beside the stream's events, not in their order: it
 * runs alongside the priming append and costs no round trip of its own).
 */
export function trackRequests(
  settings: { readonly eventStore: EventStore | undefined; readonly instanceId?: string | undefined },
  streamId: string,
  requestIds: readonly RequestId[],
  report: (error: unknown) => void,
): void {
  const { eventStore: store, instanceId } = settings;
  if (store?.trackRequests === undefined || instanceId === undefined) return;
  void Promise.resolve()
    .then(() => store.trackRequests?.(streamId, { requestIds: [...requestIds], instanceId }))
    .catch(report);
}

/**
 * Asks the store to forget streams `<key>.0` … `<key>.<count - 1>` (the session ended): in one
 * call when it can remove several at once, else one call per stream. Failures only keep memory
 * longer.
 */
export function forgetStreams(store: EventStore | undefined, key: string, count: number): void {
  if (store === undefined || count <= 0) return;
  const forget = (removal: () => void | Promise<void>): void => {
    try {
      void Promise.resolve(removal()).catch(() => undefined);
    } catch {
      // a store that fails to forget only keeps memory longer
    }
  };
  if (store.removeStreams !== undefined) {
    const streamIds = Array.from({ length: count }, (_, n) => `${key}.${n}`);
    forget(() => store.removeStreams?.(streamIds));
    return;
  }
  if (store.removeStream === undefined) return;
  for (let n = 0; n < count; n++) forget(() => store.removeStream?.(`${key}.${n}`));
}

/**
 * Failover: ends the requests of `streamId` that the instance serving them never answered (it
 * died) with a JSON-RPC error naming that instance, stored on the stream before it is returned
 * for writing, so a later resume replays the same error and nothing is answered twice. The
 * code is -32603 (Internal error): the request may or may not have run, and only the client
 * knows whether it is safe to send again.
 */
export async function endUnanswered(store: EventStore, streamId: string): Promise<StoredEvent[]> {
  const unanswered = await store.unansweredRequests?.(streamId);
  if (unanswered === undefined) return [];
  const ended: StoredEvent[] = [];
  for (const id of unanswered.requestIds) {
    const message: JsonRpcMessage = {
      jsonrpc: '2.0',
      id,
      error: {
        code: ErrorCode.InternalError,
        message: `Internal error: instance ${unanswered.instanceId}, which was handling this request, stopped before answering it; the session continues on another instance`,
        data: { lostInstance: unanswered.instanceId },
      },
    };
    ended.push({ id: await store.append(streamId, message), message });
  }
  return ended;
}
