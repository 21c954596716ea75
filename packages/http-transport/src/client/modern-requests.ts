/**
 * What a Streamable HTTP client keeps per request of the 2026-07-28 shape (MCP 2026-07-28
 * Transports, Streamable HTTP): no session, headers that mirror the request (`routing-headers.ts`,
 * plus the `Mcp-Param-*` the client derived from the tool's annotations and passed with the
 * message), and what aborts its POST. A modern request is cancelled by closing its POST and
 * response stream, which the server treats as cancellation (`cancelRequest`): the session asks
 * for it instead of writing `notifications/cancelled`.
 */
import type { JsonRpcMessage, RequestId } from '@statemcp/protocol';
import { RecordTable } from '@statemcp/protocol/internal';
import { routingHeaders } from './routing-headers.js';

/** What cancels one POST. */
export interface Abortable {
  abort(): void;
}

/** A request's entry: what aborts its POST, let go of when the entry is taken out. */
interface PostSlot {
  post: Abortable | undefined;
}

export class ModernRequests {
  /**
   * Requests not yet answered, each with a slot holding what aborts its POST, emptied when the
   * request is taken out. A `Map` changed per request leaves its discarded hash tables linked to
   * the next, and once one of them is old, minor GCs keep what later tables held: a POST's abort
   * reaches its whole request and answer, so with many requests in flight each was promoted
   * (≈5 KB per call with 16 clients × 8 in flight, a full GC every second). The `RecordTable` ends
   * such chains every few hundred deletes; the emptied slot keeps what one still holds small
   * (tooling/bench/profiling/README.md has the figures).
   */
  readonly #posts = new RecordTable<RequestId, PostSlot>();

  /**
   * A modern request (ids `requestIds`) is about to be POSTed: its headers (routing, then the sender's). `post`
   * aborts that POST (its own signal, the one `fetch` gets): cancelling aborts it directly,
   * with no second controller and no `AbortSignal.any` per request.
   */
  open(message: JsonRpcMessage, requestIds: readonly RequestId[], version: string, extra: Readonly<Record<string, string>> | undefined, post: Abortable): Record<string, string> {
    for (const id of requestIds) this.#posts.set(id, { post });
    const headers = routingHeaders(message, version);
    return extra === undefined ? headers : Object.assign(headers, extra);
  }

  /** These requests will not be answered (their POST failed, or their stream died). */
  forget(ids: readonly RequestId[]): void {
    for (const id of ids) this.#take(id);
  }

  /** Aborts the POST of modern request `id`; false when no modern request of that id is in flight. */
  cancel(id: RequestId): boolean {
    const post = this.#take(id);
    if (post === undefined) return false;
    post.abort();
    return true;
  }

  /** The answer to request `id` arrived. */
  answered(id: RequestId): void {
    this.#take(id);
  }

  /** Takes request `id` out, its slot emptied; what aborted its POST, if it was in flight. */
  #take(id: RequestId): Abortable | undefined {
    const slot = this.#posts.get(id);
    if (slot === undefined) return undefined;
    this.#posts.delete(id);
    const post = slot.post;
    slot.post = undefined;
    return post;
  }
}
