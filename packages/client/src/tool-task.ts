/**
 * The client side of the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28,
 * SEP-2663). When a server answers `tools/call` with a task, `callTool` drives it through a
 * {@link ToolTask}: poll `tasks/get` every `pollIntervalMs` (on the client's clock), answer
 * each new `inputRequests` entry with the client's own sampling / elicitation / roots handlers
 * and `tasks/update` (a key is answered once; the task is still polled while an answer is
 * awaited, so later input requests and its end show meanwhile), and return the final result as if it had come
 * inline — or reject with the task's JSON-RPC error, or with a `cancelled` error. The same
 * handle is available to the caller (`onTask`), and `client.task(id)` rebuilds one from an id
 * (a new client after a crash picks the task up where the old one left it). Every status a
 * handle sees for the first time, and every change after it, is reported to the client's
 * session as a `task.transition` inspect event (`side: 'client'`).
 */
import {
  ErrorCode,
  JsonRpcError,
  isTaskTerminal,
  taskEventBetween,
  type Clock,
  type DetailedTask,
  type JsonObject,
  type TaskInputRequest,
  type TaskTransitionReport,
} from '@statemcp/protocol';
import type { TaskWatch } from './listen.js';
import type { HandlerContext } from './options.js';
import type { CallToolResult } from './types.js';

/** What a task handle needs from its client. */
export interface TaskChannel {
  /** Sends a tasks request (`tasks/get`, `tasks/update`, `tasks/cancel`) on the client's connection. */
  request(method: string, params: JsonObject, signal?: AbortSignal): Promise<JsonObject>;
  /** Answers one input request with the client's handler for its method. */
  answer(method: string, params: JsonObject, context: HandlerContext): Promise<JsonObject>;
  readonly clock: Clock;
  readonly protocolVersion: string;
  /** The tool the task runs, when known (the call that created it). */
  readonly tool?: string;
  /** Publishes a status change the handle observed (`Session.reportTaskTransition`); `build` runs only when someone inspects. */
  report?(build: () => TaskTransitionReport): void;
  /**
   * Follows the task's `notifications/tasks` on the client's listen streams: `onPush` gets each
   * pushed state, or `undefined` when coverage may have changed (a stream ended).
   */
  watch?(taskId: string, onPush: (task: DetailedTask | undefined) => void): TaskWatch;
}

/** Poll interval when the server suggests none, ms. */
const DEFAULT_POLL_MS = 1_000;

/** A handle on one task of the tasks extension. */
export class ToolTask {
  /** The task's id (keep it to reach the task from another client). */
  readonly taskId: string;
  readonly #channel: TaskChannel;
  readonly #answered = new Set<string>();
  #last: DetailedTask | undefined;

  constructor(taskId: string, channel: TaskChannel, initial?: DetailedTask) {
    this.taskId = taskId;
    this.#channel = channel;
    if (initial !== undefined) this.#observe(initial);
  }

  /** The latest state seen (from the creation or the last poll). */
  get last(): DetailedTask | undefined {
    return this.#last;
  }

  /** `tasks/get`: the task's current state. */
  async get(signal?: AbortSignal): Promise<DetailedTask> {
    const task = (await this.#channel.request('tasks/get', { taskId: this.taskId }, signal)) as unknown as DetailedTask;
    this.#observe(task);
    return task;
  }

  /** Keeps the latest state and reports a status seen for the first time or changed since the last one. */
  #observe(task: DetailedTask): void {
    const previous = this.#last?.status;
    this.#last = task;
    const event = previous === undefined ? 'created' : taskEventBetween(previous, task.status);
    if (event === undefined || this.#channel.report === undefined) return;
    const { tool } = this.#channel;
    this.#channel.report(() => {
      const elapsedMs = Date.parse(task.lastUpdatedAt) - Date.parse(task.createdAt);
      return {
        taskId: this.taskId,
        side: 'client',
        ...(tool !== undefined ? { tool } : {}),
        from: previous ?? task.status,
        to: task.status,
        event,
        ...(Number.isFinite(elapsedMs) ? { elapsedMs } : {}),
      };
    });
  }

  /** `tasks/cancel`: asks the server to stop (cooperative; watch the status for the outcome). */
  async cancel(signal?: AbortSignal): Promise<void> {
    await this.#channel.request('tasks/cancel', { taskId: this.taskId }, signal);
  }

  /**
   * Every change of status (and every new set of input requests), polling until the task is
   * terminal; input requests are answered along the way. Ends after the terminal state.
   */
  async *statuses(signal?: AbortSignal): AsyncGenerator<DetailedTask, void, undefined> {
    let previous = '';
    let pushed: DetailedTask | undefined;
    let wake: (() => void) | undefined;
    const watch = this.#channel.watch?.(this.taskId, (task) => {
      if (task !== undefined) pushed = task;
      wake?.();
    });
    // Input requests are answered in the background, so the task is still followed meanwhile (a
    // further input request, or its end, shows while an answer is awaited): a batch sent wakes the
    // loop for the next poll, a failed one ends it with its error.
    let answered = false;
    let failure: { readonly error: unknown } | undefined;
    const onAnswered = (outcome: { readonly error: unknown } | undefined): void => {
      failure ??= outcome;
      answered = true;
      wake?.();
    };
    // While a listen stream covers the task its changes are pushed and the handle waits for
    // them; without one (or once the stream drops) it polls `tasks/get`.
    const pause = (ms: number): Promise<void> => {
      if (pushed !== undefined || answered) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        // `stop` ends the wait (timer cleared, listener removed) however it ends.
        const stop = new AbortController();
        const finish = (): void => {
          wake = undefined;
          stop.abort();
          resolve();
        };
        wake = finish;
        const either = signal === undefined ? stop.signal : AbortSignal.any([signal, stop.signal]);
        this.#sleep(watch?.covered === true ? undefined : ms, either).then(finish, (error: Error) => {
          if (!stop.signal.aborted) reject(error);
        });
      });
    };
    try {
      for (;;) {
        if (failure !== undefined) throw failure.error;
        answered = false;
        const task = pushed ?? (await this.get(signal));
        if (pushed !== undefined) this.#last = pushed;
        pushed = undefined;
        const fingerprint = `${task.status}:${Object.keys(task.inputRequests ?? {}).join(',')}`;
        if (fingerprint !== previous) {
          previous = fingerprint;
          yield task;
        }
        if (isTaskTerminal(task.status)) return;
        if (task.status === 'input_required') this.#answerInputs(task.inputRequests ?? {}, signal, onAnswered);
        await pause(task.pollIntervalMs ?? DEFAULT_POLL_MS);
      }
    } finally {
      watch?.stop();
    }
  }

  /** The task's status changes until it is terminal (the same as `statuses()`). */
  [Symbol.asyncIterator](): AsyncGenerator<DetailedTask, void, undefined> {
    return this.statuses();
  }

  /** Waits for the end: the tool's result, or a rejection with the task's error (or cancellation). */
  async result(signal?: AbortSignal): Promise<CallToolResult> {
    let final: DetailedTask | undefined;
    for await (const task of this.statuses(signal)) final = task;
    if (final?.status === 'completed' && final.result !== undefined) return final.result as unknown as CallToolResult;
    if (final?.status === 'failed' && final.error !== undefined) throw new JsonRpcError(final.error.code, final.error.message, final.error.data);
    throw new JsonRpcError(ErrorCode.InternalError, `Task ${this.taskId} ended ${final?.status ?? 'without a state'} and has no result`);
  }

  /**
   * Starts answering the input requests not answered yet, all in one `tasks/update` once every
   * answer is in; `done` hears how it went. Nothing to answer: nothing happens.
   */
  #answerInputs(requests: Record<string, TaskInputRequest>, signal: AbortSignal | undefined, done: (failure: { readonly error: unknown } | undefined) => void): void {
    const pending = Object.entries(requests).filter(([key]) => !this.#answered.has(key));
    if (pending.length === 0) return;
    for (const [key] of pending) this.#answered.add(key);
    // Keys are the server's: without a prototype, `__proto__` is a key like any other.
    const inputResponses = Object.create(null) as Record<string, JsonObject>;
    const answers = pending.map(async ([key, request]) => {
      inputResponses[key] = await this.#channel.answer(request.method, request.params ?? {}, this.#context(key, request.method, signal));
    });
    void Promise.all(answers)
      .then(() => this.#channel.request('tasks/update', { taskId: this.taskId, inputResponses }, signal))
      .then(
        () => done(undefined),
        (error: unknown) => done({ error }),
      );
  }

  #context(key: string, method: string, signal: AbortSignal | undefined): HandlerContext {
    const none = (): Promise<void> => Promise.resolve();
    return {
      requestId: `${this.taskId}/${key}`,
      method,
      signal: signal ?? new AbortController().signal,
      meta: undefined,
      traceContext: undefined,
      authInfo: undefined,
      transportContext: undefined,
      protocolVersion: this.#channel.protocolVersion,
      requester: undefined,
      sendProgress: none,
      retainProgress: () => undefined,
      sendNotification: none,
      sendRequest: () => Promise.reject(new JsonRpcError(ErrorCode.InvalidRequest, 'A task input request cannot send requests of its own')),
    };
  }

  /** Waits `ms` on the client's clock (forever when undefined: only `signal` ends it then). */
  #sleep(ms: number | undefined, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        if (timer !== undefined) this.#channel.clock.clearTimeout(timer);
        reject(signal?.reason as Error);
      };
      const timer =
        ms === undefined
          ? undefined
          : this.#channel.clock.setTimeout(() => {
              signal?.removeEventListener('abort', onAbort);
              resolve();
            }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
