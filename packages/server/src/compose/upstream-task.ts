/**
 * Tasks of an upstream surfaced downstream (tasks extension `io.modelcontextprotocol/tasks`, MCP
 * 2026-07-28, SEP-2663). A mounted tool that may run as a task keeps its `execution` and is
 * registered with `deferTask`, so a forwarded call stays a plain call until the upstream answers
 * it with a task: then the gateway's call becomes a task of its own (`extra.continueAsTask()`), a
 * gateway task mapped to the upstream one, which the gateway's client drives to its end. Task ids
 * are the gateway's, so tasks of different upstreams never collide, and each is bound to the
 * caller that created it like any task of the gateway.
 *
 * ```
 *  downstream             gateway                                   upstream
 *  tools/call ──────────▶ forwarded call ─────────────────────────▶ tools/call (MRTR rounds first, if any)
 *             ◀── TaskCreatedResult (gateway id) ◀── onTask ◀────── TaskCreatedResult (upstream id)
 *  tasks/get ───────────▶ the gateway task                          ◀── tasks/get, polled by the gateway's client
 *  tasks/update ────────▶ answers an input request of the gateway ─▶ tasks/update, under the upstream's key
 *                         task, which one of the upstream task's
 *                         inputRequests opened
 *  tasks/cancel ────────▶ the gateway task is cancelled ───────────▶ tasks/cancel
 *  notifications/tasks ◀─ every move of the gateway task (its listen streams)
 * ```
 *
 * The upstream task's result or error ends the gateway task the same way (a tool error stays a
 * `completed` task with `isError`, a JSON-RPC error a `failed` one). A caller that does not run
 * the call as a task (no extension declared, a legacy session) gets the result inline once the
 * upstream task ends.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { ToolTask } from '@statemcp/client';
import type { RequestExtra } from '../request-extra.js';

/** What a forwarded `tools/call` passes to the gateway's client: the signal that ends it and the hook of an upstream task. */
export interface TaskableCall {
  readonly signal: AbortSignal;
  readonly onTask: (task: ToolTask) => void;
}

/**
 * Runs `call` for the downstream request of `extra`: the upstream call ends with the caller's
 * request and, once the call became a task downstream, with that task (its cancellation is
 * passed upstream with `tasks/cancel`). Resolves with the result once the gateway task (if any)
 * exists, so a result never overtakes the creation of its task.
 */
export async function forwardTaskable<T>(extra: RequestExtra, call: (options: TaskableCall) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let unfollow = follow(extra.signal, controller);
  // Settles with the failure of the gateway task's creation, if any (handled at once: it may come while the call runs).
  let escalated: Promise<{ readonly error: unknown } | undefined> = Promise.resolve(undefined);
  const onTask = (task: ToolTask): void => {
    // The call's own context: `tasks/cancel` then states the caller's capabilities, as the call did.
    const inCall = AsyncLocalStorage.snapshot();
    escalated = extra.continueAsTask().then(
      () => {
        if (extra.task === undefined) return undefined; // not a task downstream: the upstream task is driven to its end, answered inline
        unfollow();
        unfollow = follow(extra.signal, controller, () => {
          inCall(() => task.cancel()).catch(() => undefined); // the upstream task may have ended meanwhile
        });
        return undefined;
      },
      (error: unknown) => ({ error }),
    );
  };
  try {
    const result = await call({ signal: controller.signal, onTask });
    const failed = await escalated;
    if (failed !== undefined) throw failed.error;
    return result;
  } finally {
    await escalated;
    unfollow();
  }
}

/** Aborts `controller` (after `onAbort`) when `signal` aborts; returns the function that stops following. */
function follow(signal: AbortSignal, controller: AbortController, onAbort?: () => void): () => void {
  const abort = (): void => {
    onAbort?.();
    controller.abort(signal.reason);
  };
  if (signal.aborted) {
    abort();
    return () => undefined;
  }
  signal.addEventListener('abort', abort, { once: true });
  return () => signal.removeEventListener('abort', abort);
}
