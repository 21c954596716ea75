/**
 * The server of the job-queue tests: one `McpServer` whose task tools run on the queue, over the
 * Redis stores (task records, the cluster bus). The same function builds an instance (with an
 * HTTP front and the `TaskQueue` executor) and a worker (no HTTP; `TaskWorker` runs the jobs).
 * Tools, all task-only:
 *
 * - `count` `{ steps, stepMs, hold? }`: one step every `stepMs`, a checkpoint and a status message
 *   after each; resumes from its checkpoint; answers which worker finished it and from which step;
 *   with `hold`, its last step waits until the process is released (`released`);
 * - `wait`: runs until its signal fires (cancel, drain);
 * - `ask`: asks the client for a name (an input request), then greets it;
 * - `flaky`: always asks to be retried (`TaskRetryError`);
 * - `stubborn`: checkpoints, then ignores its signal forever — unless it resumes from that
 *   checkpoint, when it answers at once (a handler a drain has to give up on).
 */
import { McpServer, TaskRetryError, type DurableTaskStore, type RequestExtra, type TaskExecutor } from '@statemcp/server';
import type { MessageBus, SubscriptionStore } from '@statemcp/protocol';

/** What the tools report as they run (printed by the child processes, collected in process). */
export type QueueEvent =
  | { readonly event: 'step'; readonly taskId: string; readonly step: number; readonly worker: string }
  | { readonly event: 'attempt'; readonly taskId: string; readonly tool: string; readonly attempt: number; readonly worker: string }
  | { readonly event: 'aborted'; readonly taskId: string; readonly worker: string }
  | { readonly event: 'changed'; readonly taskId: string; readonly status: string; readonly worker: string; readonly error?: string };

export interface QueueServerOptions {
  readonly id: string;
  readonly store: DurableTaskStore;
  readonly bus: MessageBus;
  readonly subscriptions: SubscriptionStore;
  readonly executor?: TaskExecutor;
  readonly now?: () => number;
  /** Resolves when the test releases this process's held `count` tasks (never, by default). */
  readonly released?: Promise<void>;
  /** The authorization context of a request (default: the tasks extension's). */
  readonly owner?: (extra: RequestExtra) => string | undefined;
  readonly report: (event: QueueEvent) => void;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = (): void => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Resolves with `gate`, or rejects once `signal` aborts. */
function until(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const stop = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', stop, { once: true });
    void gate.then(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    });
  });
}

const TASK_ONLY = { execution: { taskSupport: 'required' as const } };

/** The test server `id` (see the module comment). */
export function queueServer(options: QueueServerOptions): McpServer {
  const { id, report } = options;
  const released = options.released ?? new Promise<void>(() => undefined);
  const mcp = new McpServer(
    { name: `queue-${id}`, version: '1.0.0' },
    {
      cluster: { instanceId: id, bus: options.bus, subscriptions: options.subscriptions },
      taskExtension: {
        store: options.store,
        pollIntervalMs: 20,
        ...(options.executor === undefined ? {} : { executor: options.executor }),
        ...(options.now === undefined ? {} : { now: options.now }),
        ...(options.owner === undefined ? {} : { owner: options.owner }),
      },
    },
  );
  mcp.setTaskNotifier({ taskChanged: (task) => report({ event: 'changed', taskId: task.taskId, status: task.status, worker: id, ...(task.error === undefined ? {} : { error: task.error.message }) }) });
  const attempt = (tool: string, task: { taskId: string; attempt?: number } | undefined): string => {
    const taskId = task?.taskId ?? '?';
    report({ event: 'attempt', taskId, tool, attempt: task?.attempt ?? 0, worker: id });
    return taskId;
  };

  const countSchema = { type: 'object', properties: { steps: { type: 'number' }, stepMs: { type: 'number' }, hold: { type: 'boolean' } } } as const;
  mcp.registerTool('count', { ...TASK_ONLY, inputSchema: countSchema }, async (args, extra) => {
    const { steps, stepMs, hold = false } = args as { steps: number; stepMs: number; hold?: boolean };
    const taskId = attempt('count', extra.task);
    const resumedFrom = (extra.task?.lastCheckpoint as { done?: number } | undefined)?.done ?? 0;
    for (let done = resumedFrom; done < steps; ) {
      if (hold && done === steps - 1) await until(released, extra.signal);
      await sleep(stepMs, extra.signal);
      done++;
      await extra.task?.checkpoint?.({ done });
      await extra.task?.setStatusMessage?.(`step ${String(done)}/${String(steps)}`);
      report({ event: 'step', taskId, step: done, worker: id });
    }
    return { content: [{ type: 'text', text: `counted to ${String(steps)}` }], structuredContent: { steps, resumedFrom, attempt: extra.task?.attempt ?? 0, worker: id } };
  });
  mcp.registerTool('wait', TASK_ONLY, async (_args, extra) => {
    const taskId = attempt('wait', extra.task);
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    report({ event: 'aborted', taskId, worker: id });
    return { content: [{ type: 'text', text: 'stopped' }] };
  });
  mcp.registerTool('ask', TASK_ONLY, async (_args, extra) => {
    attempt('ask', extra.task);
    const answer = await extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])} from ${id}` }] };
  });
  mcp.registerTool('flaky', TASK_ONLY, (_args, extra) => {
    const taskId = attempt('flaky', extra.task);
    throw new TaskRetryError(`upstream unavailable (${taskId.slice(0, 4)})`);
  });
  mcp.registerTool('stubborn', TASK_ONLY, async (_args, extra) => {
    attempt('stubborn', extra.task);
    if (extra.task?.lastCheckpoint !== undefined) return { content: [{ type: 'text', text: `resumed on ${id}` }] };
    await extra.task?.checkpoint?.({ started: id });
    return new Promise<never>(() => undefined); // deaf to extra.signal
  });
  return mcp;
}
