/**
 * The client's custom (non-spec) methods: the requests and notifications it answers for a
 * server (each declared under `experimental` in the handshake, or `extensions` from
 * 2026-07-28), and the types of `Client.request()` / `notify()` for sending them. The rules
 * (naming, opt-in, validation both ways) live in the protocol package's session runner; this
 * file keeps the registrations across reconnects, since each `connect()` starts a new session.
 */
import {
  type CustomNotificationSpec,
  type CustomRequestSpec,
  type CustomSchema,
  type InferCustom,
  type NotificationContext,
  type NotificationHandler,
  type RequestHandler,
  type Session,
  CustomMethodTable,
  declareCustomOptIns,
} from '@statemcp/protocol';
import type { CallOptions, HandlerContext } from './options.js';
import type { ClientCapabilities } from './types.js';

/** Answers a custom request from the server: gets the validated params (without `_meta`, which is `context.meta`). */
export type CustomRequestHandler<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined> = (
  params: InferCustom<P>,
  context: HandlerContext,
) => InferCustom<R> | Promise<InferCustom<R>>;

/** Handles a custom notification from the server: gets the validated params (without `_meta`). */
export type CustomNotificationHandler<P extends CustomSchema | undefined = undefined> = (params: InferCustom<P>, context: NotificationContext) => void | Promise<void>;

/** Options of `Client.request()`: a call's options plus the method's schemas and opt-in. */
export type CustomCallOptions<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined> = Omit<CallOptions, 'validateOutput'> &
  CustomRequestSpec<P, R>;

/** Options of `Client.notify()`: the params schema and opt-in of a custom notification. */
export type CustomNotifyOptions<P extends CustomSchema | undefined = undefined> = CustomNotificationSpec<P>;

/** The custom methods a client answers, installed on each of its sessions. */
export class ClientCustomMethods {
  readonly table = new CustomMethodTable();
  /** Built by the first registration (most clients define none). */
  #requests: Map<string, RequestHandler> | undefined;
  #notifications: Map<string, NotificationHandler> | undefined;

  /** Registers a custom request handler and installs it on `session` (the current one). */
  defineRequest(method: string, spec: CustomRequestSpec, handler: RequestHandler, session: Session): void {
    this.table.defineRequest(method, spec);
    (this.#requests ??= new Map()).set(method, handler);
    session.setRequestHandler(method, handler);
  }

  /** Registers a custom notification handler and installs it on `session` (the current one). */
  defineNotification(method: string, spec: CustomNotificationSpec, handler: NotificationHandler, session: Session): void {
    this.table.defineNotification(method, spec);
    (this.#notifications ??= new Map()).set(method, handler);
    session.setNotificationHandler(method, handler);
  }

  /** Installs every registration on a new session. */
  install(session: Session): void {
    if (this.#requests !== undefined) for (const [method, handler] of this.#requests) session.setRequestHandler(method, handler);
    if (this.#notifications !== undefined) for (const [method, handler] of this.#notifications) session.setNotificationHandler(method, handler);
  }

  /** `capabilities` with every opt-in declared for `version`. */
  declare(capabilities: ClientCapabilities, version: string): ClientCapabilities {
    return declareCustomOptIns(capabilities, this.table.optIns(), version);
  }
}
