/**
 * Running the handlers of extension tasks (`io.modelcontextprotocol/tasks`, MCP 2026-07-28) out
 * of the process that created them. By default a task's handler runs in the `McpServer` that
 * answered the `tools/call`, and dies with it. With a {@link TaskExecutor} (the tasks extension's
 * `executor` option, e.g. `TaskQueue` of `@statemcp/task-queue`) the call only writes the task
 * record and hands a {@link TaskJob} to the executor; a worker process — another server
 * instance, or a process with no HTTP front at all — later runs one {@link TaskAttempt} of it
 * through `McpServer.taskJobs`, writing every status move through the same task machine and
 * store, so `tasks/get` on any instance sees the task exactly as an in-process one.
 *
 * ```
 *  tools/call ─▶ record `working` stored ─▶ executor.enqueue(job) ─▶ TaskCreatedResult
 *  worker: taskJobs.run(attempt) ─▶ finished | input (worker released) | interrupted | retry
 *  tasks/cancel, tasks/update ─▶ the worker running it (cluster bus), else the record + executor
 * ```
 *
 * Execution is at least once: an attempt may be repeated (a worker died, was drained, or the
 * handler asked for a retry), starting from the last checkpoint the handler saved
 * (`extra.task.checkpoint(state)`); the record's terminal status is written once.
 */
import { ErrorCode, JsonRpcError, type JsonObject, type JsonValue } from '@statemcp/protocol';
import { hasCapability, hasFeature } from '@statemcp/protocol/internal';
import type { RequestExtra } from '../request-extra.js';
import type { ServerConnection } from '../server-connection.js';
import type { ToolEntry } from '../tools.js';
import type { ClientCapabilities, Implementation } from '../wire-types.js';

/** Everything a worker needs to run a task's handler: plain JSON, written to the queue (no credentials). */
export interface TaskJob {
  readonly taskId: string;
  /** The registered tool to run. */
  readonly tool: string;
  /** The call's arguments, as the client sent them (validated again by the worker). */
  readonly arguments: JsonValue | undefined;
  readonly protocolVersion: string;
  /** What the creating request declared (input requests are checked against it). */
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** The creating request's `_meta`. */
  readonly meta?: JsonObject;
  /**
   * Who the task's capacity is shared with: a SHA-256 digest of the authorization context the
   * task is bound to (never the context itself), absent for an unbound task. An executor runs
   * the tasks of different keys in turn, so one principal cannot starve the others.
   */
  readonly fairnessKey?: string;
}

/** The digest of an authorization context that leaves the process in its stead (hex SHA-256): a job's {@link TaskJob.fairnessKey}, a listen stream's audience. */
export async function ownerDigest(owner: string): Promise<string> {
  const digest = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(owner)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Where the handlers of tasks run when not in the creating process (see the module comment). */
export interface TaskExecutor {
  /** Queues the job of a task whose record was just stored; rejects when it could not be queued. */
  enqueue(job: TaskJob): Promise<void>;
  /** The task was cancelled while no process ran it: its queued job is dropped. */
  drop(taskId: string): Promise<void>;
  /**
   * Answers for a task waiting on input while no process runs it: kept for its next attempt;
   * `complete` once nothing is outstanding any more (the task is queued again then).
   */
  answer(taskId: string, answers: Readonly<Record<string, JsonObject>>, complete: boolean): Promise<void>;
}

/** One attempt at running a task's job, as an executor's worker hands it to `McpServer.taskJobs.run`. */
export interface TaskAttempt {
  readonly job: TaskJob;
  /** 1 for the first attempt; retries, restarts after a crash count, hand-backs do not. */
  readonly attempt: number;
  /** What the handler saved last with `extra.task.checkpoint(state)`, if anything. */
  readonly checkpoint: JsonValue | undefined;
  /** Answers to input requests of earlier attempts, by input key. */
  readonly answers: Readonly<Record<string, JsonObject>>;
  /** Aborted when the worker must give the job back (a drain past its deadline). */
  readonly signal: AbortSignal;
  /** Saves the handler's checkpoint where the next attempt finds it. */
  saveCheckpoint(state: JsonValue): Promise<void>;
  /** Resolves while this attempt still owns the job; rejects once another worker may run it. */
  confirm(): Promise<void>;
}

/** How an attempt ended. */
export type TaskAttemptOutcome =
  /** The record is terminal (completed, failed or cancelled; perhaps before this attempt). */
  | { readonly kind: 'finished' }
  /**
   * The handler asked for input: the record is `input_required` and the worker is free. Call
   * `parked()` once the job waits (no worker holds it): it stops serving the task's commands and
   * resolves with the answers that reached this worker meanwhile, and whether they were the last.
   */
  | {
      readonly kind: 'input';
      /** Stops serving the task's commands; the answers that reached this worker meanwhile. */
      parked(): Promise<{ readonly answers: Readonly<Record<string, JsonObject>>; readonly complete: boolean }>;
    }
  /** The attempt's signal aborted (a drain): give the job back, it resumes from its checkpoint. */
  | { readonly kind: 'interrupted' }
  /** The handler threw a {@link TaskRetryError}: run it again later (until attempts run out). */
  | { readonly kind: 'retry'; readonly cause: string };

/**
 * Thrown by a task's handler to be run again from its last checkpoint (a transient failure)
 * when an executor runs it; the executor's attempt limit turns the last one into `failed` with
 * this message. Run in process (no executor), it is an ordinary tool error (`isError: true`).
 */
export class TaskRetryError extends Error {
  override readonly name = 'TaskRetryError';
}

/** Pending input of a queued attempt: the handler's request is filed, the attempt ends. */
export class TaskInputPending extends Error {
  override readonly name = 'TaskInputPending';
  constructor() {
    super('The task waits for input; it runs again once the answers arrive');
  }
}

/**
 * The base {@link RequestExtra} of a handler run from a {@link TaskJob}: identity and
 * capabilities of the creating request, no connection (a worker may have none) and no
 * credentials (they never leave the instance that received them).
 */
export function jobExtra(job: TaskJob, signal: AbortSignal): RequestExtra {
  const unavailable = (what: string) => () => {
    throw new JsonRpcError(ErrorCode.InternalError, `${what} is not available to a task run by an executor`);
  };
  const requireClientCapabilities = (required: ClientCapabilities): void => {
    const missing = Object.keys(required).filter((name) => !hasCapability(job.clientCapabilities as JsonObject, [name]));
    if (missing.length === 0) return;
    if (hasFeature(job.protocolVersion, 'perRequestMeta')) {
      throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: ${missing.join(', ')}`, {
        requiredCapabilities: Object.fromEntries(missing.map((name) => [name, {}])),
      });
    }
    throw new JsonRpcError(ErrorCode.InvalidRequest, `The client did not declare the ${missing.join(', ')} capability this request needs`);
  };
  return {
    signal,
    requestId: `task:${job.taskId}`,
    protocolVersion: job.protocolVersion,
    authInfo: undefined,
    auth: undefined,
    http: undefined,
    meta: job.meta,
    traceContext: undefined,
    get connection(): ServerConnection {
      return unavailable('The connection')();
    },
    task: { taskId: job.taskId },
    clientCapabilities: job.clientCapabilities,
    clientInfo: job.clientInfo,
    requireClientCapabilities,
    sendProgress: () => Promise.resolve(),
    sendNotification: () => Promise.resolve(),
    log: () => Promise.resolve(false),
    sendRequest: unavailable('sendRequest'),
    elicit: unavailable('elicit'),
    createMessage: unavailable('createMessage'),
    listRoots: unavailable('listRoots'),
    continueAsTask: () => Promise.resolve(),
  };
}

/** What {@link TaskJobs} needs of the tasks extension's runner. */
interface AttemptRunner {
  runAttempt(entry: ToolEntry | undefined, attempt: TaskAttempt): Promise<TaskAttemptOutcome>;
  failTask(taskId: string, message: string): Promise<void>;
}

/**
 * The worker side of a {@link TaskExecutor} (`McpServer.taskJobs`): runs attempts of queued
 * tasks with this server's tools, store and cluster bus, writing every move through the task
 * machine. A worker-only process builds the same `McpServer` (same tools, store and `cluster`)
 * and never serves HTTP.
 */
export class TaskJobs {
  readonly #runner: AttemptRunner | undefined;
  readonly #tool: (name: string) => ToolEntry | undefined;

  /** @internal */
  constructor(runner: AttemptRunner | undefined, tool: (name: string) => ToolEntry | undefined) {
    this.#runner = runner;
    this.#tool = tool;
  }

  /** Runs one attempt of a job (see {@link TaskAttemptOutcome}); rejects when the store fails. */
  run(attempt: TaskAttempt): Promise<TaskAttemptOutcome> {
    const entry = this.#tool(attempt.job.tool);
    return this.#required().runAttempt(entry?.enabled === true ? entry : undefined, attempt);
  }

  /** Ends the task `failed` with `message` (the executor gave up on it); a terminal task is left alone. */
  fail(taskId: string, message: string): Promise<void> {
    return this.#required().failTask(taskId, message);
  }

  #required(): AttemptRunner {
    if (this.#runner === undefined) throw new Error('The tasks extension is turned off (taskExtension: false): no task jobs run here');
    return this.#runner;
  }
}
