/**
 * One attempt at an executor's task job (see `task-executor.ts`), run in a worker through
 * `McpServer.taskJobs.run`. The attempt serves the task's commands (a `tasks/cancel` or
 * `tasks/update` sent to any instance reaches it over the cluster bus) before it reads the
 * record, so a cancel is never missed: either it arrives here, or it was applied to the record
 * already and the attempt sees a terminal task and does nothing.
 *
 * Input follows the re-execution model of multi round-trip requests (MCP 2026-07-28): an
 * `extra.elicit()` (or `createMessage`, `listRoots`, `sendRequest`) whose answer an earlier
 * attempt received returns it at once; a new one is filed in the record's `inputRequests`
 * (`input_required`) and ends the attempt, releasing the worker; the job runs again with every
 * answer once none is outstanding. Unnamed requests are keyed by their order in the attempt
 * (`input-1`, `input-2`, …): a handler that skips questions on resume (from a checkpoint)
 * should name them with the `inputKey` option.
 */
import { isTaskTerminal, type JsonObject, type JsonValue, type TaskError } from '@statemcp/protocol';
import { toWireError } from '@statemcp/protocol/internal';
import type { TaskContext } from '../request-extra.js';
import { runTool, type ToolCallback, type ToolEntry } from '../tools.js';

import type { StoredTask } from './durable-store.js';
import type { LiveTask } from './extension-tasks.js';
import { TaskInputPending, TaskRetryError, jobExtra, type TaskAttempt, type TaskAttemptOutcome } from './task-executor.js';
import { taskRequestExtra, type TaskInputChannel } from './task-input.js';
import { moved, withoutResultType } from './task-records.js';

/** What the task runner lends an attempt: its command routing, store and task machine writes. */
export interface AttemptHost {
  /** Serves the task's commands here and registers `live`; resolves with the function that stops both. */
  serve(taskId: string, live: Omit<LiveTask, 'release'>): Promise<() => Promise<void>>;
  get(taskId: string): Promise<StoredTask | undefined>;
  mutate(taskId: string, change: (current: StoredTask) => StoredTask | undefined): Promise<void>;
  finish(taskId: string, event: 'complete' | 'fail', outcome: Pick<StoredTask, 'result' | 'error'>): Promise<void>;
  statusMessage(taskId: string, message: string): Promise<void>;
  now(): number;
}

const FINISHED: TaskAttemptOutcome = Object.freeze({ kind: 'finished' });

function taskError(error: unknown): TaskError {
  const { code, message, data } = toWireError(error);
  return data === undefined ? { code, message } : { code, message, data };
}

/** Validates the job's arguments again (the worker's schema), as `tools/call` did. */
async function checkedArguments(entry: ToolEntry, args: JsonValue | undefined): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  if (entry.input === undefined) return { ok: true, value: args ?? {} };
  const checked = await entry.input.check(args ?? {});
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, message: `Invalid arguments for tool ${entry.name}: ${checked.message}` };
}

/** Runs one attempt (see the module comment); rejects when the store or the executor fails (the executor retries). */
export async function runAttempt(host: AttemptHost, entry: ToolEntry | undefined, attempt: TaskAttempt): Promise<TaskAttemptOutcome> {
  const { job } = attempt;
  const { taskId } = job;
  const controller = new AbortController();
  const waiting = new Map<string, (answer: JsonObject) => void>();
  // Commands first, then the record: a cancel is applied either here or before the read.
  const stop = await host.serve(taskId, { controller, waiting, origin: undefined });
  let parkedLater = false;
  try {
    const record = await host.get(taskId);
    if (record === undefined || isTaskTerminal(record.task.status)) return FINISHED;
    if (entry === undefined) {
      await host.finish(taskId, 'fail', { error: { code: -32602, message: `Unknown tool: ${job.tool}` } });
      return FINISHED;
    }
    const checked = await checkedArguments(entry, job.arguments);
    if (!checked.ok) {
      await host.finish(taskId, 'complete', { result: { content: [{ type: 'text', text: checked.message }], isError: true } });
      return FINISHED;
    }
    const run = new AttemptRun(host, attempt, controller, waiting);
    const outcome = await run.execute(entry, checked.value);
    if (outcome === 'input') {
      parkedLater = true;
      return { kind: 'input', parked: () => run.parked(stop) };
    }
    return outcome;
  } finally {
    if (!parkedLater) await stop();
  }
}

/** The state of one running attempt: its input requests and answers, retry and interruption. */
class AttemptRun {
  readonly #host: AttemptHost;
  readonly #attempt: TaskAttempt;
  readonly #controller: AbortController;
  readonly #waiting: Map<string, (answer: JsonObject) => void>;
  /** Answers that reached this attempt while it ran (applied here by `tasks/update`). */
  readonly #arrived: Record<string, JsonObject> = {};
  readonly #filings: Promise<void>[] = [];
  #ordinal = 0;
  #retry: TaskRetryError | undefined;
  /** An input request was filed: the handler's signal aborts once its synchronous requests are made. */
  #ending = false;

  constructor(host: AttemptHost, attempt: TaskAttempt, controller: AbortController, waiting: Map<string, (answer: JsonObject) => void>) {
    this.#host = host;
    this.#attempt = attempt;
    this.#controller = controller;
    this.#waiting = waiting;
  }

  /** Runs the handler and writes its outcome; `'input'` when it asked for input (the record says what). */
  async execute(entry: ToolEntry, args: unknown): Promise<TaskAttemptOutcome | 'input'> {
    const { job } = this.#attempt;
    const signal = this.#controller.signal;
    const interrupt = (): void => this.#controller.abort(this.#attempt.signal.reason);
    if (this.#attempt.signal.aborted) interrupt();
    else this.#attempt.signal.addEventListener('abort', interrupt, { once: true });
    const extra = taskRequestExtra(jobExtra(job, signal), this.#context(), signal, this.#channel());
    let outcome: Pick<StoredTask, 'result' | 'error'>;
    try {
      outcome = { result: withoutResultType(await runTool(this.#watched(entry), args, extra, job.protocolVersion)) };
    } catch (error) {
      outcome = { error: taskError(error) };
    } finally {
      this.#attempt.signal.removeEventListener('abort', interrupt);
    }
    await Promise.all(this.#filings);
    if (this.#filings.length > 0) return 'input';
    const current = await this.#host.get(job.taskId);
    if (current === undefined || isTaskTerminal(current.task.status)) return FINISHED; // cancelled (or expired) meanwhile
    if (this.#retry !== undefined) return { kind: 'retry', cause: this.#retry.message };
    if (this.#attempt.signal.aborted) return { kind: 'interrupted' };
    await this.#attempt.confirm(); // still ours: no other worker completes it too
    await this.#host.finish(job.taskId, outcome.result === undefined ? 'fail' : 'complete', outcome);
    return FINISHED;
  }

  /** After the job was parked: stop serving, and report the answers that arrived meanwhile. */
  async parked(stop: () => Promise<void>): Promise<{ answers: Readonly<Record<string, JsonObject>>; complete: boolean }> {
    await stop();
    const record = await this.#host.get(this.#attempt.job.taskId);
    const answers = { ...this.#arrived };
    return { answers, complete: Object.keys(answers).length > 0 && record?.task.status === 'working' };
  }

  #context(): TaskContext {
    const { attempt, checkpoint, job } = this.#attempt;
    return {
      taskId: job.taskId,
      attempt,
      idempotencyKey: job.taskId,
      ...(checkpoint === undefined ? {} : { lastCheckpoint: checkpoint }),
      checkpoint: (state) => this.#attempt.saveCheckpoint(state),
      setStatusMessage: (message) => this.#host.statusMessage(job.taskId, message),
    };
  }

  /** The handler, noting a {@link TaskRetryError} (which `runTool` would turn into a tool error). */
  #watched(entry: ToolEntry): ToolEntry {
    const handler = entry.handler as ToolCallback<unknown, unknown>;
    const watched: ToolCallback<unknown, unknown> = async (args, extra) => {
      try {
        return await handler(args, extra);
      } catch (error) {
        if (error instanceof TaskRetryError) this.#retry = error;
        throw error;
      }
    };
    return { ...entry, handler: watched };
  }

  #channel(): TaskInputChannel {
    const taskId = this.#attempt.job.taskId;
    return {
      request: (method, params, signal, given) => {
        const key = given ?? `input-${++this.#ordinal}`;
        const answer = this.#attempt.answers[key] ?? this.#arrived[key];
        if (answer !== undefined) return Promise.resolve(answer);
        if (signal.aborted) return Promise.reject(signal.reason as Error);
        this.#waiting.set(key, (late) => (this.#arrived[key] = late));
        const request = params === undefined ? { method } : { method, params };
        this.#filings.push(
          this.#host.mutate(taskId, (current) => {
            if (isTaskTerminal(current.task.status) || Object.hasOwn(current.inputRequests, key)) return undefined;
            const next = { ...current, inputKeysIssued: current.inputKeysIssued + 1, inputRequests: { ...current.inputRequests, [key]: request } };
            return moved(next, 'needInput', this.#host.now());
          }),
        );
        const pending = new TaskInputPending();
        // The attempt ends here (the worker is released) — once the requests the handler makes
        // together (`Promise.all([extra.elicit(a), extra.elicit(b)])`) are all filed, as in process.
        if (!this.#ending) {
          this.#ending = true;
          queueMicrotask(() => this.#controller.abort(pending));
        }
        return Promise.reject(pending);
      },
    };
  }
}
