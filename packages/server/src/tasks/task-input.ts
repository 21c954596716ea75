/**
 * The seam between a handler and the task it runs in (tasks extension, digest §7.5): the same
 * tool code runs inline and as a task. Inline, `extra.elicit()` / `extra.createMessage()` /
 * `extra.listRoots()` / `extra.sendRequest()` reach the client directly; inside a task they
 * go through a {@link TaskInputChannel}, which files the request under a fresh key in the
 * task's `inputRequests` (status `input_required`) and resolves with the answer the client
 * later sends in `tasks/update`. Progress and log notifications are not carried for tasks
 * (§7.5), so those calls are dropped here.
 *
 * This module owns the seam; the multi round-trip (MRTR) work routes its input requests
 * through the same channel interface.
 */
import { ErrorCode, JsonRpcError, hasCapability, type JsonObject } from '@statemcp/protocol';
import type { InputRequestOptions, RequestExtra, TaskContext } from '../request-extra.js';
import type { CreateMessageResult, ElicitResult, ListRootsResult } from '../wire-types.js';

/** How a handler running as a task asks the requestor for something. */
export interface TaskInputChannel {
  /**
   * Files `{ method, params }` as an input request of the task and resolves with the client's
   * answer (rejects when `signal` aborts: the task was cancelled or expired). `key` is the
   * handler's `inputKey` option, when it gave one.
   */
  request(method: string, params: JsonObject | undefined, signal: AbortSignal, key?: string): Promise<JsonObject>;
}

/** Which client capability each input method needs (checked against the creating request's). */
const NEEDS: ReadonlyMap<string, string> = new Map([
  ['elicitation/create', 'elicitation'],
  ['sampling/createMessage', 'sampling'],
  ['roots/list', 'roots'],
]);

/**
 * The {@link RequestExtra} of a handler running as task `task` (its id, or its whole
 * {@link TaskContext}): `base` for identity and capabilities, `signal` aborted by
 * `tasks/cancel`, input requests through `channel`.
 */
export function taskRequestExtra(base: RequestExtra, task: string | TaskContext, signal: AbortSignal, channel: TaskInputChannel): RequestExtra {
  const ask = async (method: string, params: JsonObject | undefined, options: InputRequestOptions | undefined): Promise<JsonObject> => {
    const needed = NEEDS.get(method);
    if (needed !== undefined && !hasCapability(base.clientCapabilities, [needed])) {
      throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${needed}`, { requiredCapabilities: { [needed]: {} } });
    }
    const given = options?.signal;
    return channel.request(method, params, given === undefined ? signal : AbortSignal.any([signal, given]), options?.inputKey);
  };
  return {
    signal,
    requestId: base.requestId,
    protocolVersion: base.protocolVersion,
    authInfo: base.authInfo,
    auth: base.auth,
    http: base.http,
    meta: base.meta,
    traceContext: base.traceContext,
    get connection() {
      return base.connection; // read when used: a worker's base has none
    },
    task: typeof task === 'string' ? { taskId: task } : task,
    clientCapabilities: base.clientCapabilities,
    clientInfo: base.clientInfo,
    requireClientCapabilities: (required) => base.requireClientCapabilities(required),
    sendProgress: () => Promise.resolve(),
    sendNotification: () => Promise.resolve(),
    log: () => Promise.resolve(false),
    sendRequest: (method, params, options) => ask(method, params, options),
    elicit: async (params, options) => (await ask('elicitation/create', params, options)) as unknown as ElicitResult,
    createMessage: async (params, options) => (await ask('sampling/createMessage', params, options)) as unknown as CreateMessageResult,
    listRoots: async (options) => (await ask('roots/list', undefined, options)) as unknown as ListRootsResult,
    continueAsTask: () => Promise.resolve(),
  };
}
