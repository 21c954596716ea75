/**
 * What a Streamable HTTP client keeps per request of the 2026-07-28 shape (MCP 2026-07-28
 * Transports, Streamable HTTP): no session, headers that mirror the request (`routing-headers.ts`,
 * plus the `Mcp-Param-*` the client derived from the tool's annotations and passed with the
 * message), and what aborts its POST. A modern request is cancelled by closing its POST and
 * response stream, which the server treats as cancellation (`cancelRequest`): the session asks
 * for it instead of writing `notifications/cancelled`.
 */
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';
import { requestIdsOf } from './message-kinds.js';
import { routingHeaders } from './routing-headers.js';

export class ModernRequests {
  /** Requests not yet answered, with what aborts their POST. */
  readonly #controllers = new Map<RequestId, AbortController>();

  /** A modern request is about to be POSTed: its headers (routing, then the sender's), and the controller that cancels it. */
  open(message: JsonRpcMessage, version: string, extra: Readonly<Record<string, string>> | undefined): { readonly headers: Record<string, string>; readonly cancel: AbortController } {
    const cancel = new AbortController();
    for (const id of requestIdsOf(message)) this.#controllers.set(id, cancel);
    const headers = routingHeaders(message, version);
    return { headers: extra === undefined ? headers : Object.assign(headers, extra), cancel };
  }

  /** These requests will not be answered (their POST failed, or their stream died). */
  forget(ids: readonly RequestId[]): void {
    for (const id of ids) this.#controllers.delete(id);
  }

  /** Aborts the POST of modern request `id`; false when no modern request of that id is in flight. */
  cancel(id: RequestId): boolean {
    const cancel = this.#controllers.get(id);
    if (cancel === undefined) return false;
    this.#controllers.delete(id);
    cancel.abort();
    return true;
  }

  /** The answer to request `id` arrived. */
  answered(id: RequestId): void {
    this.#controllers.delete(id);
  }
}
