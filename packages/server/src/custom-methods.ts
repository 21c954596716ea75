/**
 * Types of the server's custom (non-spec) methods: what `Server.method()` /
 * `Server.notification()` handlers receive, and the options of `ServerConnection.request()` /
 * `notify()` for sending them. The rules (naming, opt-in through `experimental` /
 * `extensions`, validation both ways) live in the protocol package's session runner; see
 * `CustomMethodTable` there.
 */
import type { CustomRequestSpec, CustomSchema, InferCustom, NotificationOptions, RequestOptions } from '@statemcp/protocol';
import { customSpecOf } from '@statemcp/protocol/internal';
import type { ServerNotificationContext, ServerRequestContext } from './server.js';

/** Handles a custom request: gets the validated params (without `_meta`, which is `context.meta`), returns the result. */
export type CustomRequestHandler<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined> = (
  params: InferCustom<P>,
  context: ServerRequestContext,
) => InferCustom<R> | Promise<InferCustom<R>>;

/** Handles a custom notification: gets the validated params (without `_meta`). */
export type CustomNotificationHandler<P extends CustomSchema | undefined = undefined> = (params: InferCustom<P>, context: ServerNotificationContext) => void | Promise<void>;

/** Options of `ServerConnection.request()` for a custom method: the request options plus its schemas and opt-in. */
export type CustomRequestOptions<P extends CustomSchema | undefined = undefined, R extends CustomSchema | undefined = undefined> = Omit<RequestOptions, 'custom'> &
  CustomRequestSpec<P, R>;

/** Options of `ServerConnection.notify()` for a custom notification. */
export type CustomNotifyOptions<P extends CustomSchema | undefined = undefined> = Omit<NotificationOptions, 'custom'> & {
  /** Validates `params` before sending. */
  readonly params?: P;
  /** The id the client must have declared (default: the method name); `false`: no opt-in needed. */
  readonly optIn?: string | false;
};

/** Splits call options into the runner's options with a `custom` spec. */
export function splitCustomOptions<O extends { readonly params?: unknown; readonly result?: unknown; readonly optIn?: string | false }>(options: O) {
  const { params: _params, result: _result, optIn: _optIn, ...rest } = options;
  return { ...rest, custom: customSpecOf(options) };
}
