/**
 * What every session of one client answers and hears, as one table the sessions share
 * (`SessionOptions.handlers`, the model a server uses for its connections): the server's
 * requests (`sampling/createMessage`, `elicitation/create`, `roots/list`) go to the user's
 * handlers; a listened notification goes to the listen streams' router first, then — unless
 * the client's own list-changed stream carries that list and this is another stream's copy —
 * to what it makes stale (`StaleResults`) and the listeners; the listen streams' own
 * notifications (acknowledgements, `notifications/tasks`) go to the streams.
 *
 * A session asks the table only for a method it has no handler of its own for, so
 * `session.setRequestHandler` still replaces an entry for that session and
 * `removeRequestHandler` still hides it. The handler of a method is built the first time a
 * message of it arrives and kept: a connection that hears nothing builds none.
 */
import type { HandlerLookup, JsonObject, NotificationHandler, RequestContext, RequestHandler } from '@statemcp/protocol';
import type { ListChangedStream } from './list-changed-stream.js';
import { LISTENED_NOTIFICATIONS, type ListenedNotification, type NotificationListeners, type OwnListener } from './listeners.js';
import type { ListenStreams } from './listen.js';
import type { ResponseCache } from './response-cache.js';
import type { ServerRequestHandlers } from './server-requests.js';
import type { ToolOutputValidator } from './tool-output.js';

/** The requests a server sends a client, answered by `ServerRequestHandlers`. */
const SERVER_REQUESTS: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);

const LISTENED: ReadonlySet<string> = new Set(LISTENED_NOTIFICATIONS);

/** The notifications that concern the listen streams alone. */
const STREAM_NOTIFICATIONS: ReadonlySet<string> = new Set(['notifications/subscriptions/acknowledged', 'notifications/tasks']);

/** The handlers shared by the sessions of one client (see the module comment). */
export class ClientHandlerTable implements HandlerLookup {
  readonly #serverRequests: ServerRequestHandlers;
  readonly #listeners: NotificationListeners;
  readonly #streams: ListenStreams;
  readonly #listChanged: ListChangedStream;
  #requests: Map<string, RequestHandler> | undefined;
  #notifications: Map<string, NotificationHandler> | undefined;

  constructor(serverRequests: ServerRequestHandlers, listeners: NotificationListeners, streams: ListenStreams, listChanged: ListChangedStream) {
    this.#serverRequests = serverRequests;
    this.#listeners = listeners;
    this.#streams = streams;
    this.#listChanged = listChanged;
  }

  requestHandler(method: string): RequestHandler | undefined {
    if (!SERVER_REQUESTS.has(method)) return undefined;
    const requests = (this.#requests ??= new Map());
    let handler = requests.get(method);
    if (handler === undefined) {
      const serverRequests = this.#serverRequests;
      handler = (params: JsonObject, context: RequestContext) => serverRequests.answer(method, params, context);
      requests.set(method, handler);
    }
    return handler;
  }

  notificationHandler(method: string): NotificationHandler | undefined {
    const listened = LISTENED.has(method);
    if (!listened && !STREAM_NOTIFICATIONS.has(method)) return undefined;
    const notifications = (this.#notifications ??= new Map());
    let handler = notifications.get(method);
    if (handler === undefined) {
      handler = listened ? (params: JsonObject) => this.#hear(method as ListenedNotification, params) : (params: JsonObject) => this.#streams.route(method, params);
      notifications.set(method, handler);
    }
    return handler;
  }

  #hear(method: ListenedNotification, params: JsonObject): void {
    this.#streams.route(method, params);
    if (this.#listChanged.admits(method, params)) this.#listeners.emit(method, params);
  }
}

/** What a change notification makes stale in a client: the tools' output schemas, cached responses. */
export class StaleResults implements OwnListener {
  readonly #toolOutput: ToolOutputValidator;
  readonly #cache: ResponseCache | undefined;

  constructor(toolOutput: ToolOutputValidator, cache: ResponseCache | undefined) {
    this.#toolOutput = toolOutput;
    this.#cache = cache;
  }

  notified(method: ListenedNotification, params: JsonObject): void {
    if (method === 'notifications/tools/list_changed') this.#toolOutput.clear();
    this.#cache?.notified(method, params);
  }
}
