/**
 * A session transport's use of its {@link EventStore} when a client resumes a stream
 * (`GET` + `Last-Event-ID`) and when the session ends: replaying one stream's events after a
 * given id, writing them to the new connection, and forgetting the session's streams.
 */
import { encodeSseEvent } from '../shared/sse-encode.js';
import type { EventStore, StoredEvent } from './event-store.js';
import type { SseConnection } from './sse-connection.js';

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

/** Asks the store to forget streams `<key>.0` … `<key>.<count - 1>`; failures only keep memory longer. */
export function forgetStreams(store: EventStore | undefined, key: string, count: number): void {
  if (store?.removeStream === undefined) return;
  for (let n = 0; n < count; n++) {
    try {
      void Promise.resolve(store.removeStream(`${key}.${n}`)).catch(() => undefined);
    } catch {
      // a store that fails to forget only keeps memory longer
    }
  }
}
