/**
 * Inbound notifications after the connection machine's gate: params validated against the
 * revision, the runner's own (cancel, progress, task status) routed first, then the
 * application's handler, whose failures become diagnostics and never reach the peer.
 */
import type { JsonObject, JsonRpcNotification } from '../jsonrpc/messages.js';
import type { Revision } from '../revisions/types.js';
import type { InboundContext } from '../transport/transport.js';
import type { SessionObserver } from './observer.js';
import type { NotificationHandler } from './options.js';
import { formatIssues } from './validation.js';

/** Task statuses after which a task's progress token is released (rule 49). */
export const TERMINAL_TASK_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled']);

/** What notification routing needs from its session. */
export interface NotificationHost {
  readonly observer: SessionObserver;
  revision(): Revision;
  onPeerCancel(params: JsonObject): void;
  onProgress(params: JsonObject): void;
  onTaskTerminal(taskId: string): void;
}

export class InboundNotifications {
  readonly #host: NotificationHost;
  readonly #handlers = new Map<string, NotificationHandler>();

  constructor(host: NotificationHost) {
    this.#host = host;
  }

  setHandler(method: string, handler: NotificationHandler): void {
    this.#handlers.set(method, handler);
  }

  removeHandler(method: string): void {
    this.#handlers.delete(method);
  }

  /** A notification the connection machine accepted. */
  handle(message: JsonRpcNotification, context: InboundContext | undefined): void {
    const host = this.#host;
    const { method } = message;
    const params = message.params ?? {};
    const spec = host.revision().notifications[method];
    if (spec !== undefined) {
      const parsed = spec.params.safeParse(params);
      if (!parsed.success) {
        host.observer.diagnostic(`dropped ${method} with invalid params: ${formatIssues(parsed.error)}`);
        return;
      }
    }
    if (method === 'notifications/cancelled') host.onPeerCancel(params);
    else if (method === 'notifications/progress') host.onProgress(params);
    else if (method === 'notifications/tasks/status' && typeof params.taskId === 'string' && TERMINAL_TASK_STATUSES.has(String(params.status))) {
      host.onTaskTerminal(params.taskId);
    }
    const handler = this.#handlers.get(method);
    if (handler === undefined) return;
    try {
      const done = handler(params, { method, authInfo: context?.authInfo, transportContext: context });
      if (done instanceof Promise) done.catch((error: unknown) => host.observer.diagnostic(`notification handler for ${method} failed`, error));
    } catch (error) {
      host.observer.diagnostic(`notification handler for ${method} threw`, error);
    }
  }
}
