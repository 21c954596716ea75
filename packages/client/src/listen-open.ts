/**
 * Opening a listen stream in the era the connection speaks (see `listen.ts`): a
 * `subscriptions/listen` request in the 2026-07-28 era, `resources/subscribe` calls and the
 * connection's own notifications in the legacy era — and opening it again on the client's next
 * connection when the last one was lost.
 */
import { TransportError, type JsonObject, type Session } from '@statemcp/protocol';
import { ListenStream, legacyHonoured, type ListenHandle, type ListenOptions, type ListenStreams, type SubscriptionFilter } from './listen.js';
import type { ServerCapabilities } from './types.js';

/** What opening a stream needs from the client. */
export interface ListenHost {
  readonly session: Session;
  readonly modern: boolean;
  readonly streams: ListenStreams;
  readonly serverCapabilities: ServerCapabilities | undefined;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
}

/** Opens a stream and resolves once the server acknowledged it; rejects when it fails before that. */
export async function openListen(host: ListenHost, filter: SubscriptionFilter, options: ListenOptions): Promise<ListenHandle> {
  const resume = options.resume ?? true;
  const stream = host.modern ? openModern(host, filter, resume) : await openLegacy(host, filter, resume);
  const signal = options.signal;
  if (signal !== undefined) {
    if (signal.aborted) void stream.close();
    else signal.addEventListener('abort', () => void stream.close(), { once: true });
  }
  await stream.opened;
  return stream;
}

/**
 * Opens again, on the connection `host` speaks for, every stream that waited out a lost
 * connection: the same filter, in the new connection's era, under a new id. Each stream's
 * `onResumed` hears the new acknowledgement; one that cannot be opened again ends with the error.
 */
export function resumeListens(host: ListenHost): void {
  for (const stream of host.streams.takeWaiting()) {
    if (host.modern) {
      sendModern(host, stream);
      continue;
    }
    reopenLegacy(host, stream).catch((error: unknown) => stream.finish({ reason: 'connection', error: error instanceof Error ? error : new Error(String(error)) }));
  }
}

/**
 * Keeps the streams of `session` (built by `host`) open across connections: once it is
 * Operating, the streams waiting from a lost connection are opened again; when it becomes
 * Operating again (a legacy handshake re-run after the Streamable HTTP server forgot the
 * session), the legacy streams subscribe to their resources again.
 */
export function watchListenResumes(session: Session, streams: ListenStreams, host: () => ListenHost): void {
  let operated = false;
  const stop = session.onTransition((to) => {
    if (to.kind === 'terminated') stop();
    if (to.kind !== 'operating') return;
    if (!streams.resumable) {
      operated = true; // nothing to open or subscribe again: the host is built only when a stream needs it
      return;
    }
    const current = host();
    if (operated) {
      for (const stream of current.streams.legacyStreams) for (const uri of stream.filter?.resourceSubscriptions ?? []) current.subscribe(uri).catch(() => undefined);
      return;
    }
    operated = true;
    resumeListens(current);
  });
}

function openModern(host: ListenHost, filter: SubscriptionFilter, resume: boolean): ListenStream {
  const stream = new ListenStream(() => Promise.resolve(), filter, resume);
  sendModern(host, stream);
  return stream;
}

/** Sends `subscriptions/listen` for `stream` (its first time, or again on a new connection). */
function sendModern(host: ListenHost, stream: ListenStream): void {
  const controller = new AbortController();
  let closing = false;
  stream.reopen(async () => {
    closing = true;
    controller.abort('the listen stream was closed');
    await stream.ended;
  });
  const acknowledgedBefore = stream.acknowledgements;
  const notifications = structuredClone(stream.requested) as unknown as JsonObject;
  host.session
    .request('subscriptions/listen', { notifications }, { timeoutMs: Infinity, signal: controller.signal, waitForOperating: true, onRequestId: (id) => host.streams.addTagged(id, stream) })
    .then(
      () => {
        host.streams.remove(stream);
        stream.finish({ reason: 'server' });
      },
      (error: unknown) => {
        // The connection is going away: its end decides whether the stream ends or waits for the next one.
        if (!closing && host.session.state.kind !== 'operating') return;
        host.streams.remove(stream);
        // The response stream broke after the acknowledgement, the connection lives on (stateless HTTP): send it again.
        if (!closing && stream.resume && error instanceof TransportError && stream.acknowledgements > acknowledgedBefore) {
          sendModern(host, stream);
          return;
        }
        stream.finish(closing ? { reason: 'closed' } : { reason: 'connection', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
}

async function openLegacy(host: ListenHost, filter: SubscriptionFilter, resume: boolean): Promise<ListenStream> {
  const stream = new ListenStream(() => Promise.resolve(), filter, resume);
  await reopenLegacy(host, stream);
  return stream;
}

/** Subscribes `stream`'s resources on a legacy connection and routes the connection's notifications to it. */
async function reopenLegacy(host: ListenHost, stream: ListenStream): Promise<void> {
  const honoured = legacyHonoured(stream.requested, host.serverCapabilities);
  const uris = honoured.resourceSubscriptions ?? [];
  stream.reopen(async () => {
    host.streams.remove(stream);
    stream.finish({ reason: 'closed' });
    const released = uris.filter((uri) => !host.streams.legacyWants(uri));
    await Promise.all(released.map((uri) => host.unsubscribe(uri).catch(() => undefined)));
  });
  for (const uri of uris) await host.subscribe(uri);
  host.streams.addLegacy(stream);
  stream.acknowledge(honoured);
}
