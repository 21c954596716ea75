/**
 * The server side of the tasks extension (`io.modelcontextprotocol/tasks`, 2026-07-28,
 * SEP-2663). A tool registered with `execution.taskSupport` `optional` or `required` runs as a
 * task whenever the request's client capabilities list the extension: the task record is
 * written to the {@link DurableTaskStore} first (durable creation), then the handler starts in
 * the background and the call answers with a `TaskCreatedResult`. A `required` tool called
 * without the extension is -32021 with `requiredCapabilities`; an `optional` one runs inline.
 *
 * `tasks/get` returns the `DetailedTask` (`inputRequests` / `result` / `error` by status),
 * `tasks/update` answers outstanding input requests (unknown keys ignored, partial answers
 * kept), `tasks/cancel` moves the task to `cancelled` and aborts the handler's signal; both
 * ack with an empty result. Every status move goes through the shared task machine, so a
 * cancelled task stays cancelled when its handler finishes later. An unknown, expired or
 * foreign task id is -32602 (a task bound to an authorization context is invisible to
 * others); the three methods need the extension on the request (-32021 otherwise).
 * `notifications/tasks` is handed to a {@link TaskNotifier}, which a `subscriptions/listen`
 * stream plugs into (filter `taskIds`).
 */
import {
  ErrorCode,
  JsonRpcError,
  TASKS_EXTENSION_ID,
  isTaskTerminal,
  taskEventBetween,
  type TaskCreatedResult,
  type DetailedTask,
  type JsonObject,
  type JsonValue,
} from '@statemcp/protocol';
import { declaresTasksExtension, hasFeature, toWireError } from '@statemcp/protocol/internal';
import { requestExtra, type RequestExtra } from '../request-extra.js';
import type { ServerRequestContext } from '../server.js';
import { runTool, type ToolEntry } from '../tools.js';
import { MemoryTaskStore, type DurableTaskStore, type StoredTask } from './durable-store.js';
import type { ListenSubscriptions } from '../subscriptions.js';
import { DeferredTaskExtra } from './deferred-extra.js';
import { listenTaskNotifier } from './task-listen.js';
import { TaskCommands, type TaskCommand, type TaskCommandsOptions } from './task-commands.js';
import { taskRequestExtra, type TaskInputChannel } from './task-input.js';
import { runAttempt, type AttemptHost } from './task-attempt.js';
import { ownerDigest, type TaskAttempt, type TaskAttemptOutcome, type TaskExecutor, type TaskJob } from './task-executor.js';
import { defaultOwner, detailed, moved, newTaskId, reportMove, withoutResultType, type TaskOrigin } from './task-records.js';

/** Receives every change of a task's state (the full `DetailedTask`, as `notifications/tasks` carries it). */
export interface TaskNotifier {
  /** `owner`: the authorization context the task is bound to; deliver only to listeners of that context. */
  taskChanged(task: DetailedTask, owner: string | undefined): void;
}

/** Options of the tasks extension on an `McpServer`: the store, task lifetime, poll interval, owner binding, notifier. */
export interface ExtensionTaskOptions {
  /** Where tasks live (default: a {@link MemoryTaskStore}). */
  readonly store?: DurableTaskStore;
  /** Lifetime of a task from its creation, ms (default 3 600 000; `null`: unlimited). */
  readonly ttlMs?: number | null;
  /** Suggested polling interval, ms (default 500). */
  readonly pollIntervalMs?: number;
  /** Told of every status change (default: nobody). */
  readonly notifier?: TaskNotifier;
  /**
   * The authorization context a task is bound to, from the request that creates or reads it
   * (default: the verified principal of `extra.auth` — issuer and subject, or client — when
   * present, else `extra.authInfo`'s `subject`, `clientId` or `token`; unbound without either).
   */
  readonly owner?: (extra: RequestExtra) => string | undefined;
  /** Wall clock, ms since the epoch (default `Date.now`). */
  readonly now?: () => number;
  /**
   * Runs the handlers of new tasks elsewhere (a job queue: `TaskQueue` of
   * `@statemcp/task-queue`): the call stores the task and hands its job to the executor, and a
   * worker runs it through `McpServer.taskJobs`. `deferTask` tools still run here. Default: here.
   */
  readonly executor?: TaskExecutor;
}

/** What runs in this process for a task: its abort switch, the handler's pending input requests, and where it came from. */
export interface LiveTask {
  readonly controller: AbortController;
  readonly waiting: Map<string, (answer: JsonObject) => void>;
  /** The session of the `tools/call` that created the task: its moves show in that session's `inspect` (none in a worker). */
  readonly origin: TaskOrigin | undefined;
  /** Stops serving other instances' commands for the task (a no-op alone). */
  readonly release: () => Promise<void>;
}

const unserved = (): Promise<void> => Promise.resolve();

const REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } };

/** Runs extension tasks for one `McpServer` and serves `tasks/get`, `tasks/update` and `tasks/cancel`. */
export class ExtensionTasks {
  readonly #store: DurableTaskStore;
  readonly #ttlMs: number | null;
  readonly #pollIntervalMs: number;
  readonly #owner: (extra: RequestExtra) => string | undefined;
  readonly #now: () => number;
  readonly #live = new Map<string, LiveTask>();
  readonly #queues = new Map<string, Promise<unknown>>();
  #notifier: TaskNotifier | undefined;
  #listen: TaskNotifier | undefined;
  /** In a cluster: `tasks/cancel` and `tasks/update` for a task running on another instance go there. */
  readonly #commands: TaskCommands | undefined;
  readonly #executor: TaskExecutor | undefined;

  constructor(options: ExtensionTaskOptions = {}, cluster?: TaskCommandsOptions) {
    this.#commands = cluster === undefined ? undefined : new TaskCommands(cluster);
    this.#now = options.now ?? Date.now;
    this.#store = options.store ?? new MemoryTaskStore({ now: this.#now });
    this.#ttlMs = options.ttlMs === undefined ? 3_600_000 : options.ttlMs;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#owner = options.owner ?? defaultOwner;
    this.#notifier = options.notifier;
    this.#executor = options.executor;
  }

  /** Replaces the notifier (a `subscriptions/listen` implementation plugs in here). */
  setNotifier(notifier: TaskNotifier | undefined): void {
    this.#notifier = notifier;
  }

  /**
   * Publishes `notifications/tasks` on the listen streams of `subscriptions` whose `taskIds`
   * name the task and whose authorization context owns it (besides the notifier).
   */
  attachListen(subscriptions: ListenSubscriptions): void {
    this.#listen = listenTaskNotifier(subscriptions, (context) => this.#owner(requestExtra(context)));
  }

  /** Whether the request of `context` can run tools as tasks here: it declares the extension (2026-07-28). */
  offersTasks(context: ServerRequestContext): boolean {
    return hasFeature(context.protocolVersion, 'perRequestMeta') && declaresTasksExtension(context.requester?.capabilities);
  }

  /**
   * Whether this call runs as a task: yes when the tool allows it and the request declared the
   * extension; a `required` tool without the extension is -32021.
   */
  wantsTask(entry: ToolEntry, context: ServerRequestContext): boolean {
    const support = entry.wire.execution?.taskSupport ?? 'forbidden';
    if (support === 'forbidden' || !hasFeature(context.protocolVersion, 'perRequestMeta')) return false;
    if (declaresTasksExtension(context.requester?.capabilities)) return true;
    if (support === 'required') {
      throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Tool ${entry.name} runs only as a task: declare the ${TASKS_EXTENSION_ID} extension`, REQUIRED);
    }
    return false;
  }

  /**
   * Creates the task durably, starts the handler and returns the `TaskCreatedResult`. A
   * `deferTask` tool's handler starts inline instead (its input requests are MRTR rounds of
   * this request) and the task is created when it calls `extra.continueAsTask()`; a handler
   * that returns first answers inline.
   */
  async start(entry: ToolEntry, args: unknown, context: ServerRequestContext): Promise<JsonObject> {
    const direct = requestExtra(context);
    if (!entry.deferTask && this.#executor !== undefined) return this.#enqueue(this.#executor, entry, args, context, direct);
    if (!entry.deferTask) {
      const { created, extra } = await this.#create(entry, context, direct);
      void this.#run(entry, args, extra, context.protocolVersion, () => created.taskId);
      return created as unknown as JsonObject;
    }
    let created: TaskCreatedResult | undefined;
    let announce!: (result: JsonObject) => void;
    const escalated = new Promise<JsonObject>((resolve) => (announce = resolve));
    const extra = new DeferredTaskExtra(direct, async () => {
      const task = await this.#create(entry, context, direct);
      created = task.created;
      announce(task.created as unknown as JsonObject);
      return task.extra;
    });
    const inline = this.#run(entry, args, extra, context.protocolVersion, () => created?.taskId);
    return Promise.race([escalated, inline.then((result) => (created === undefined ? result : escalated))]);
  }

  /** A new `working` record, bound to the owner of the creating request. */
  #newRecord(direct: RequestExtra): StoredTask {
    const now = this.#now();
    const stamp = new Date(now).toISOString();
    return {
      task: { taskId: newTaskId(), status: 'working', createdAt: stamp, lastUpdatedAt: stamp, ttlMs: this.#ttlMs, pollIntervalMs: this.#pollIntervalMs },
      owner: this.#owner(direct),
      inputRequests: {},
      inputKeysIssued: 0,
      expiresAt: this.#ttlMs === null ? null : now + this.#ttlMs,
    };
  }

  /** Writes a new `working` task to the store (durable creation) and builds the handler's task extra. */
  async #create(entry: ToolEntry, context: ServerRequestContext, direct: RequestExtra): Promise<{ created: TaskCreatedResult; extra: RequestExtra }> {
    const record = this.#newRecord(direct);
    const { taskId } = record.task;
    // Serving commands first: once the task exists, a cancel from any instance reaches its handler.
    const release = (await this.#commands?.serve(taskId, (id, command) => this.#apply(id, command))) ?? unserved;
    try {
      await this.#store.create(record);
    } catch (error) {
      await release();
      throw error;
    }
    const origin = { session: context.connection.session, requestId: context.requestId, tool: entry.name };
    const live: LiveTask = { controller: new AbortController(), waiting: new Map(), origin, release };
    this.#live.set(taskId, live);
    reportMove(origin, record, record, 'created');
    let saved: JsonValue | undefined;
    const task = {
      taskId,
      attempt: 1,
      idempotencyKey: taskId,
      get lastCheckpoint() {
        return saved;
      },
      checkpoint: (state: JsonValue) => {
        saved = structuredClone(state);
        return Promise.resolve();
      },
      setStatusMessage: (message: string) => this.#statusMessage(taskId, message),
    };
    return { created: { resultType: 'task', ...record.task }, extra: taskRequestExtra(direct, task, live.controller.signal, this.#channel(taskId, live)) };
  }

  /** Stores the task and hands its job to the executor; a job that cannot be queued fails the task and the call. */
  async #enqueue(executor: TaskExecutor, entry: ToolEntry, args: unknown, context: ServerRequestContext, direct: RequestExtra): Promise<JsonObject> {
    const record = this.#newRecord(direct);
    const { taskId } = record.task;
    await this.#store.create(record);
    const job: TaskJob = {
      taskId,
      tool: entry.name,
      arguments: args === undefined ? undefined : (JSON.parse(JSON.stringify(args)) as JsonValue),
      protocolVersion: context.protocolVersion,
      clientCapabilities: direct.clientCapabilities,
      ...(direct.clientInfo === undefined ? {} : { clientInfo: direct.clientInfo }),
      ...(direct.meta === undefined ? {} : { meta: direct.meta }),
      ...(record.owner === undefined ? {} : { fairnessKey: await ownerDigest(record.owner) }),
    };
    try {
      await executor.enqueue(job);
    } catch (error) {
      await this.failTask(taskId, `The task could not be queued: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
    reportMove({ session: context.connection.session, requestId: context.requestId, tool: entry.name }, record, record, 'created');
    return { resultType: 'task', ...record.task };
  }

  /** Runs one attempt of an executor's job here (a worker); `entry` is the job's tool, if registered here. */
  runAttempt(entry: ToolEntry | undefined, attempt: TaskAttempt): Promise<TaskAttemptOutcome> {
    return runAttempt(this.#attemptHost, entry, attempt);
  }

  /** Ends a non-terminal task `failed` with an internal error saying `message` (an executor gave up on it). */
  async failTask(taskId: string, message: string): Promise<void> {
    await this.#finish(taskId, 'fail', { error: { code: ErrorCode.InternalError, message } });
  }

  /** What an executor's attempt needs of this runner. */
  readonly #attemptHost: AttemptHost = {
    serve: async (taskId, live) => {
      const release = (await this.#commands?.serve(taskId, (id, command) => this.#apply(id, command))) ?? unserved;
      this.#live.set(taskId, { ...live, release });
      return async () => {
        this.#live.delete(taskId);
        await release().catch(() => undefined);
      };
    },
    get: async (taskId) => this.#store.get(taskId),
    mutate: (taskId, change) => this.#mutate(taskId, change),
    finish: (taskId, event, outcome) => this.#finish(taskId, event, outcome),
    statusMessage: (taskId, message) => this.#statusMessage(taskId, message),
    now: () => this.#now(),
  };

  /** Sets a live task's `statusMessage` (no status move). */
  #statusMessage(taskId: string, message: string): Promise<void> {
    return this.#mutate(taskId, (current) =>
      isTaskTerminal(current.task.status) ? undefined : { ...current, task: { ...current.task, statusMessage: message, lastUpdatedAt: new Date(this.#now()).toISOString() } },
    );
  }

  /**
   * Runs the handler; once it ends, the task `taskId()` names (if any by then) completes or
   * fails with its outcome. Resolves with the shaped result, rejects with a protocol error.
   */
  #run(entry: ToolEntry, args: unknown, extra: RequestExtra, version: string, taskId: () => string | undefined): Promise<JsonObject> {
    const running = runTool(entry, args, extra, version);
    void running
      .then(
        (result) => {
          const id = taskId();
          return id === undefined ? undefined : this.#finish(id, 'complete', { result: withoutResultType(result) });
        },
        (error: unknown) => {
          const id = taskId();
          if (id === undefined) return undefined;
          const { code, message, data } = toWireError(error);
          return this.#finish(id, 'fail', { error: data === undefined ? { code, message } : { code, message, data } });
        },
      )
      .finally(() => {
        const id = taskId();
        if (id === undefined) return;
        void this.#live.get(id)?.release().catch(() => undefined);
        this.#live.delete(id);
      });
    return running;
  }

  /** `tasks/get`. */
  async get(params: JsonObject, context: ServerRequestContext): Promise<JsonObject> {
    const record = await this.#require(params, context);
    return detailed(record) as unknown as JsonObject;
  }

  /** `tasks/update`: answers the outstanding keys it names; the rest are ignored. */
  async update(params: JsonObject, context: ServerRequestContext): Promise<JsonObject> {
    const record = await this.#require(params, context);
    const responses = params.inputResponses;
    if (typeof responses !== 'object' || responses === null || Array.isArray(responses)) throw new JsonRpcError(ErrorCode.InvalidParams, 'tasks/update needs an inputResponses object');
    await this.#command(record.task.taskId, { kind: 'update', inputResponses: responses as JsonObject });
    return { resultType: 'complete' };
  }

  /** `tasks/cancel`: cooperative; a terminal task acks unchanged. */
  async cancel(params: JsonObject, context: ServerRequestContext): Promise<JsonObject> {
    const record = await this.#require(params, context);
    await this.#command(record.task.taskId, { kind: 'cancel' });
    return { resultType: 'complete' };
  }

  /**
   * Applies a command where the task runs: here when it runs here (or there is no cluster);
   * else on the instance running it, over the bus; on the record alone when no instance runs it.
   */
  async #command(taskId: string, command: TaskCommand): Promise<void> {
    if (this.#commands === undefined || this.#live.has(taskId)) return this.#apply(taskId, command);
    if (!(await this.#commands.send(taskId, command))) await this.#apply(taskId, command);
  }

  /** Applies a command in this process: the record moves through the task machine, the live handler hears of it. */
  async #apply(taskId: string, command: TaskCommand): Promise<void> {
    if (command.kind === 'cancel') {
      await this.#mutate(taskId, (current) => (isTaskTerminal(current.task.status) ? undefined : { ...moved(current, 'cancel', this.#now(), 'Cancelled by the client'), inputRequests: {} }));
      const live = this.#live.get(taskId);
      if (live !== undefined) live.controller.abort(new Error('The task was cancelled'));
      else await this.#executor?.drop(taskId).catch(() => undefined); // a queued job: a worker that took it meanwhile reads `cancelled`
      return;
    }
    const responses = command.inputResponses;
    const delivered: [string, JsonObject][] = [];
    let complete = false;
    await this.#mutate(taskId, (current) => {
      const outstanding = { ...current.inputRequests };
      for (const [key, answer] of Object.entries(responses)) {
        if (!Object.hasOwn(outstanding, key) || typeof answer !== 'object' || answer === null || Array.isArray(answer)) continue;
        delete outstanding[key];
        delivered.push([key, answer as JsonObject]);
      }
      if (delivered.length === 0) return undefined;
      const next = { ...current, inputRequests: outstanding };
      complete = Object.keys(outstanding).length === 0;
      return complete ? moved(next, 'inputReceived', this.#now()) : next;
    });
    const live = this.#live.get(taskId);
    // A queued task waiting for input runs nowhere: its job keeps the answers and runs again once all are in.
    if (live === undefined && this.#executor !== undefined && delivered.length > 0) await this.#executor.answer(taskId, Object.fromEntries(delivered), complete);
    for (const [key, answer] of delivered) {
      const resolve = live?.waiting.get(key);
      live?.waiting.delete(key);
      resolve?.(answer);
    }
  }

  /** -32021 unless the request declared the extension (the three `tasks/*` methods). */
  requireExtension(context: ServerRequestContext): void {
    if (declaresTasksExtension(context.requester?.capabilities)) return;
    throw new JsonRpcError(ErrorCode.MissingRequiredClientCapability, `Missing required client capability: the ${TASKS_EXTENSION_ID} extension`, REQUIRED);
  }

  async #require(params: JsonObject, context: ServerRequestContext): Promise<StoredTask> {
    this.requireExtension(context);
    const taskId = params.taskId;
    if (typeof taskId !== 'string') throw new JsonRpcError(ErrorCode.InvalidParams, 'taskId must be a string');
    const record = await this.#store.get(taskId);
    // A task bound to another authorization context is reported exactly like an unknown one.
    if (record === undefined || (record.owner !== undefined && record.owner !== this.#owner(requestExtra(context)))) {
      throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown or expired task: ${taskId}`);
    }
    return record;
  }

  #channel(taskId: string, live: LiveTask): TaskInputChannel {
    return {
      request: (method, params, signal) => {
        if (signal.aborted) return Promise.reject(signal.reason as Error);
        return new Promise<JsonObject>((resolve, reject) => {
          let key: string | undefined;
          const onAbort = (): void => {
            if (key !== undefined) live.waiting.delete(key);
            reject(signal.reason as Error);
          };
          signal.addEventListener('abort', onAbort, { once: true });
          void this.#mutate(taskId, (current) => {
            if (isTaskTerminal(current.task.status)) return undefined;
            key = `input-${current.inputKeysIssued + 1}`;
            live.waiting.set(key, (answer) => {
              signal.removeEventListener('abort', onAbort);
              resolve(answer);
            });
            const request = params === undefined ? { method } : { method, params };
            return moved({ ...current, inputKeysIssued: current.inputKeysIssued + 1, inputRequests: { ...current.inputRequests, [key]: request } }, 'needInput', this.#now());
          }).catch(reject);
        });
      },
    };
  }

  async #finish(taskId: string, event: 'complete' | 'fail', outcome: Pick<StoredTask, 'result' | 'error'>): Promise<void> {
    await this.#mutate(taskId, (current) => (isTaskTerminal(current.task.status) ? undefined : { ...moved(current, event, this.#now()), ...outcome, inputRequests: {} })).catch(() => {
      // the store failed: the task stays as it was stored last (its ttl ends it)
    });
  }

  /** Read-modify-write of one record, serialized per task; `change` returns undefined for no change. */
  #mutate(taskId: string, change: (current: StoredTask) => StoredTask | undefined): Promise<void> {
    const previous = this.#queues.get(taskId) ?? Promise.resolve();
    const run = previous.then(async () => {
      const current = await this.#store.get(taskId);
      if (current === undefined) return;
      const next = change(current);
      if (next === undefined) return;
      await this.#store.put(next);
      const origin = this.#live.get(taskId)?.origin;
      if (origin !== undefined) reportMove(origin, current, next, taskEventBetween(current.task.status, next.task.status));
      const view = detailed(next);
      this.#listen?.taskChanged(view, next.owner);
      this.#notifier?.taskChanged(view, next.owner);
    });
    const settled = run.catch(() => undefined);
    this.#queues.set(taskId, settled);
    void settled.then(() => {
      if (this.#queues.get(taskId) === settled) this.#queues.delete(taskId);
    });
    return run;
  }
}
