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
  taskTransition,
  type TaskCreatedResult,
  type DetailedTask,
  type JsonObject,
  type RequestId,
  type Session,
  type TaskEventType,
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
}

/**
 * The default binding. With a verified principal (`extra.auth`, from the authorization layer)
 * the task belongs to it: the token's subject — or, for a client-credentials token without
 * one, its client — scoped by the issuer, so a new token of the same principal still reaches
 * its tasks and another principal never does. Otherwise an unverified `authInfo` the transport
 * supplied binds by its `subject`, `clientId` or `token`; with neither, the task is unbound.
 */
function defaultOwner(extra: RequestExtra): string | undefined {
  const principal = extra.auth;
  if (principal !== undefined) {
    const who = principal.subject === undefined ? ['client', principal.clientId] : ['subject', principal.subject];
    return `principal:${JSON.stringify([principal.issuer ?? null, ...who])}`;
  }
  const auth = extra.authInfo as { clientId?: unknown; subject?: unknown; token?: unknown } | undefined | null;
  if (typeof auth !== 'object' || auth === null) return undefined;
  for (const key of ['subject', 'clientId', 'token'] as const) {
    const value = auth[key];
    if (typeof value === 'string' && value !== '') return `${key}:${value}`;
  }
  return undefined;
}

/** 256 random bits in base64url: unguessable task ids (SEP-2663, Security). */
function newTaskId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(32));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** What runs in this process for a task: its abort switch, the handler's pending input requests, and where it came from. */
interface LiveTask {
  readonly controller: AbortController;
  readonly waiting: Map<string, (answer: JsonObject) => void>;
  /** The session of the `tools/call` that created the task: its moves show in that session's `inspect`. */
  readonly origin: TaskOrigin;
  /** Stops serving other instances' commands for the task (a no-op alone). */
  readonly release: () => Promise<void>;
}

/** The request a task was created by, for its `task.transition` inspect events. */
interface TaskOrigin {
  readonly session: Session;
  readonly requestId: RequestId;
  readonly tool: string;
}

const REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } };

function withoutResultType(result: JsonObject): JsonObject {
  const { resultType: _r, ...rest } = result;
  return rest;
}

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

  constructor(options: ExtensionTaskOptions = {}, cluster?: TaskCommandsOptions) {
    this.#commands = cluster === undefined ? undefined : new TaskCommands(cluster);
    this.#now = options.now ?? Date.now;
    this.#store = options.store ?? new MemoryTaskStore({ now: this.#now });
    this.#ttlMs = options.ttlMs === undefined ? 3_600_000 : options.ttlMs;
    this.#pollIntervalMs = options.pollIntervalMs ?? 500;
    this.#owner = options.owner ?? defaultOwner;
    this.#notifier = options.notifier;
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

  /** Writes a new `working` task to the store (durable creation) and builds the handler's task extra. */
  async #create(entry: ToolEntry, context: ServerRequestContext, direct: RequestExtra): Promise<{ created: TaskCreatedResult; extra: RequestExtra }> {
    const now = this.#now();
    const stamp = new Date(now).toISOString();
    const record: StoredTask = {
      task: { taskId: newTaskId(), status: 'working', createdAt: stamp, lastUpdatedAt: stamp, ttlMs: this.#ttlMs, pollIntervalMs: this.#pollIntervalMs },
      owner: this.#owner(direct),
      inputRequests: {},
      inputKeysIssued: 0,
      expiresAt: this.#ttlMs === null ? null : now + this.#ttlMs,
    };
    const { taskId } = record.task;
    // Serving commands first: once the task exists, a cancel from any instance reaches its handler.
    const release = (await this.#commands?.serve(taskId, (id, command) => this.#apply(id, command))) ?? (() => Promise.resolve());
    try {
      await this.#store.create(record);
    } catch (error) {
      await release();
      throw error;
    }
    const origin = { session: context.connection.session, requestId: context.requestId, tool: entry.name };
    const live: LiveTask = { controller: new AbortController(), waiting: new Map(), origin, release };
    this.#live.set(taskId, live);
    reportMove(live.origin, record, record, 'created');
    return { created: { resultType: 'task', ...record.task }, extra: taskRequestExtra(direct, taskId, live.controller.signal, this.#channel(taskId, live)) };
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
      this.#live.get(taskId)?.controller.abort(new Error('The task was cancelled'));
      return;
    }
    const responses = command.inputResponses;
    const delivered: [string, JsonObject][] = [];
    await this.#mutate(taskId, (current) => {
      const outstanding = { ...current.inputRequests };
      for (const [key, answer] of Object.entries(responses)) {
        if (!Object.hasOwn(outstanding, key) || typeof answer !== 'object' || answer === null || Array.isArray(answer)) continue;
        delete outstanding[key];
        delivered.push([key, answer as JsonObject]);
      }
      if (delivered.length === 0) return undefined;
      const next = { ...current, inputRequests: outstanding };
      return Object.keys(outstanding).length === 0 ? moved(next, 'inputReceived', this.#now()) : next;
    });
    const live = this.#live.get(taskId);
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

/** The record after `event` (through the task machine); unchanged when the machine ignores it. */
function moved(record: StoredTask, event: TaskEventType, now: number, statusMessage?: string): StoredTask {
  const step = taskTransition(record.task.status, event);
  if (!step.changed) return record;
  const task = { ...record.task, status: step.status, lastUpdatedAt: new Date(now).toISOString() };
  if (statusMessage !== undefined) task.statusMessage = statusMessage;
  return { ...record, task };
}

/**
 * The one place a task's move becomes a `task.transition` inspect event (of the session that
 * created it): after the store holds the new status. Nothing is built when nobody inspects.
 */
function reportMove(origin: TaskOrigin, before: StoredTask, after: StoredTask, event: TaskEventType | 'created' | undefined): void {
  if (event === undefined) return; // no status change (input keys added or answered in part)
  origin.session.reportTaskTransition(() => {
    const elapsedMs = Date.parse(after.task.lastUpdatedAt) - Date.parse(after.task.createdAt);
    return {
      taskId: after.task.taskId,
      side: 'server',
      requestId: origin.requestId,
      tool: origin.tool,
      from: before.task.status,
      to: after.task.status,
      event,
      ...(Number.isFinite(elapsedMs) ? { elapsedMs } : {}),
    };
  });
}

/** The `tasks/get` / `notifications/tasks` view of a record. */
function detailed(record: StoredTask): DetailedTask {
  const out: DetailedTask = { resultType: 'complete', ...record.task };
  if (record.task.status === 'input_required') out.inputRequests = { ...record.inputRequests };
  if (record.task.status === 'completed' && record.result !== undefined) out.result = record.result;
  if (record.task.status === 'failed' && record.error !== undefined) out.error = record.error;
  return out;
}
