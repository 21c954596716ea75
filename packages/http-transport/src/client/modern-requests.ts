/**
 * What a Streamable HTTP client keeps per request of the 2026-07-28 shape (MCP 2026-07-28
 * Transports, Streamable HTTP): no session, and headers that mirror the request (`Mcp-Method`,
 * `Mcp-Name`, `Mcp-Param-*` from the tools' `x-mcp-header` annotations, `routing-headers.ts`).
 * A modern request is cancelled by closing its POST and response stream, which the server
 * treats as cancellation: no `notifications/cancelled` is posted. HTTP clients leave out of
 * `tools/list` every tool whose annotations break the rules, with a warning.
 */
import { isJsonObject, type JsonRpcMessage, type RequestId } from '@statemcp/protocol';
import { isRequestId } from '@statemcp/protocol/internal';
import { isNotificationWithMethod, isRequestWithMethod, requestIdsOf } from './message-kinds.js';
import { ToolParamHeaders } from './routing-headers.js';

export class ModernRequests {
  /** The tools' `x-mcp-header` annotations, for `Mcp-Param-*` headers. */
  readonly #paramHeaders = new ToolParamHeaders();
  /** Ids of `tools/list` requests whose results are screened for invalid annotations. */
  readonly #toolLists = new Set<RequestId>();
  /** Requests not yet answered, with what aborts their POST. */
  readonly #controllers = new Map<RequestId, AbortController>();

  /** A modern request is about to be POSTed: its routing headers, and the controller that cancels it. */
  open(message: JsonRpcMessage, version: string): { readonly headers: Record<string, string>; readonly cancel: AbortController } {
    const ids = requestIdsOf(message);
    if (isRequestWithMethod(message, 'tools/list')) for (const id of ids) this.#toolLists.add(id);
    const cancel = new AbortController();
    for (const id of ids) this.#controllers.set(id, cancel);
    return { headers: this.#paramHeaders.headersFor(message, version), cancel };
  }

  /** These requests will not be answered (their POST failed, or their stream died). */
  forget(ids: readonly RequestId[]): void {
    for (const id of ids) this.#controllers.delete(id);
  }

  /**
   * `message` cancels a modern request: its POST is aborted, and the id is returned (the
   * caller stops its stream). Undefined when `message` is anything else.
   */
  cancel(message: JsonRpcMessage): RequestId | undefined {
    if (!isNotificationWithMethod(message, 'notifications/cancelled') || !('params' in message) || !isJsonObject(message.params)) return undefined;
    const id = message.params.requestId;
    const cancel = isRequestId(id) ? this.#controllers.get(id) : undefined;
    if (cancel === undefined || !isRequestId(id)) return undefined;
    this.#controllers.delete(id);
    cancel.abort();
    return id;
  }

  /** The answer to request `id` arrived: it is forgotten, and a `tools/list` result is screened (`warn` hears what was left out). */
  answered(item: Record<string, unknown>, id: RequestId, warn: (tool: string, why: string) => void): Record<string, unknown> {
    this.#controllers.delete(id);
    if (!this.#toolLists.delete(id) || !isJsonObject(item.result)) return item;
    return { ...item, result: this.#paramHeaders.screen(item.result, warn) };
  }
}
