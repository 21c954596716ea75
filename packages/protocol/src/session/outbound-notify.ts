/**
 * A notification this side sends, once the connection's gate let it out: the method policy
 * (`method-refusals.ts`), a custom notification's params checked, the middleware chain, then
 * the write. One path for a session (`SessionCore.notify`, whose gate is the connection
 * machine) and for a request served without one (`stateless-dispatcher.ts`, whose gate is the
 * modern request rule): the same checks in the same order.
 */
import type { JsonObject, JsonRpcNotification } from '../jsonrpc/messages.js';
import { checkCustomParams } from './custom-methods.js';
import { notificationRefusal, type RefusalContext } from './method-refusals.js';
import { notifyThroughMiddleware, type MiddlewareSession } from './middleware-context.js';
import type { NotificationOptions, SessionOptions } from './options.js';

/** What sending a notification reads past the gate. */
export interface NotifyHost extends RefusalContext, MiddlewareSession {
  readonly options: Pick<SessionOptions, 'middleware'>;
}

/** Checks, builds and writes notification `method` with `write`; rejects with the policy's typed error when it may not go out. */
export function notifyPastGate(host: NotifyHost, method: string, params: JsonObject | undefined, options: NotificationOptions, write: (message: JsonRpcNotification) => Promise<void>): Promise<void> {
  const refused = notificationRefusal(host, method, options);
  if (refused !== undefined) return Promise.reject(refused);
  const schema = options.custom?.params;
  if (schema === undefined) return deliver(host, method, params, write);
  return checkCustomParams(method, schema, params).then((checked) => deliver(host, method, checked, write));
}

function deliver(host: NotifyHost, method: string, params: JsonObject | undefined, write: (message: JsonRpcNotification) => Promise<void>): Promise<void> {
  const message: JsonRpcNotification = { jsonrpc: '2.0', method };
  if (params !== undefined) message.params = params;
  const chain = host.options.middleware?.for(method);
  if (chain === undefined || chain.length === 0) return write(message);
  return notifyThroughMiddleware(chain, host, message, host.protocolVersion(), () => write(message));
}
