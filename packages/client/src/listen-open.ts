/**
 * Opening a listen stream in the era the connection speaks (see `listen.ts`): a
 * `subscriptions/listen` request in the 2026-07-28 era, `resources/subscribe` calls and the
 * connection's own notifications in the legacy era.
 */
import type { JsonObject, Session } from '@statemcp/protocol';
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
  const stream = host.modern ? openModern(host, filter) : await openLegacy(host, filter);
  const signal = options.signal;
  if (signal !== undefined) {
    if (signal.aborted) void stream.close();
    else signal.addEventListener('abort', () => void stream.close(), { once: true });
  }
  await stream.opened;
  return stream;
}

function openModern(host: ListenHost, filter: SubscriptionFilter): ListenStream {
  const controller = new AbortController();
  let closing = false;
  const stream = new ListenStream(async () => {
    closing = true;
    controller.abort('the listen stream was closed');
    await stream.ended;
  });
  const notifications = structuredClone(filter) as unknown as JsonObject;
  host.session
    .request('subscriptions/listen', { notifications }, { timeoutMs: Infinity, signal: controller.signal, waitForOperating: true, onRequestId: (id) => host.streams.addTagged(id, stream) })
    .then(
      () => {
        host.streams.remove(stream);
        stream.finish({ reason: 'server' });
      },
      (error: unknown) => {
        host.streams.remove(stream);
        stream.finish(closing ? { reason: 'closed' } : { reason: 'connection', error: error instanceof Error ? error : new Error(String(error)) });
      },
    );
  return stream;
}

async function openLegacy(host: ListenHost, filter: SubscriptionFilter): Promise<ListenStream> {
  const honoured = legacyHonoured(filter, host.serverCapabilities);
  const uris = honoured.resourceSubscriptions ?? [];
  const stream: ListenStream = new ListenStream(async () => {
    host.streams.remove(stream);
    stream.finish({ reason: 'closed' });
    const released = uris.filter((uri) => !host.streams.legacyWants(uri));
    await Promise.all(released.map((uri) => host.unsubscribe(uri).catch(() => undefined)));
  });
  for (const uri of uris) await host.subscribe(uri);
  host.streams.addLegacy(stream);
  stream.acknowledge(honoured);
  return stream;
}
