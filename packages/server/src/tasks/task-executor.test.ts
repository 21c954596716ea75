/**
 * The executor seam of the tasks extension (MCP 2026-07-28, `io.modelcontextprotocol/tasks`):
 * a task tool's call stores the task and hands its job to the executor; attempts run through
 * `McpServer.taskJobs` (as a worker would), writing every move through the task machine.
 */
import { createHash } from 'node:crypto';
import { InMemoryTransport, TASKS_EXTENSION_ID, type JsonObject, type JsonValue } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../mcp-server.js';
import { MemoryTaskStore } from './durable-store.js';
import { TaskRetryError, type TaskAttempt, type TaskExecutor, type TaskJob } from './task-executor.js';

/** An executor that keeps what it is told. */
class RecordingExecutor implements TaskExecutor {
  readonly jobs: TaskJob[] = [];
  readonly dropped: string[] = [];
  readonly answers: [string, JsonObject, boolean][] = [];
  enqueue(job: TaskJob): Promise<void> {
    this.jobs.push(job);
    return Promise.resolve();
  }
  drop(taskId: string): Promise<void> {
    this.dropped.push(taskId);
    return Promise.resolve();
  }
  answer(taskId: string, answers: Readonly<Record<string, JsonObject>>, complete: boolean): Promise<void> {
    this.answers.push([taskId, { ...answers }, complete]);
    return Promise.resolve();
  }
}

async function setUp(owner?: string) {
  const store = new MemoryTaskStore();
  const executor = new RecordingExecutor();
  const server = new McpServer({ name: 'executor-test', version: '1.0.0' }, { taskExtension: { store, executor, ...(owner === undefined ? {} : { owner: () => owner }) } });
  const checkpoints: JsonValue[] = [];
  server.registerTool('steps', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    const from = Number(extra.task?.lastCheckpoint ?? 0);
    await extra.task?.checkpoint?.(from + 1);
    await extra.task?.setStatusMessage?.(`step ${String(from + 1)}`);
    return { content: [{ type: 'text', text: `from ${String(from)}, attempt ${String(extra.task?.attempt)}, key ${String(extra.task?.idempotencyKey === extra.task?.taskId)}` }] };
  });
  server.registerTool('flaky', { execution: { taskSupport: 'required' } }, () => {
    throw new TaskRetryError('try later');
  });
  server.registerTool('ask', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    return { content: [{ type: 'text', text: `hello ${String(answer.content?.['name'])}` }] };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const waiting = new Map<unknown, (response: JsonObject) => void>();
  await clientTransport.start({ onMessage: (message) => waiting.get((message as JsonObject).id)?.(message as JsonObject), onClose: () => undefined });
  await server.connect(serverTransport);
  let next = 1;
  const send = async (method: string, params: JsonObject): Promise<JsonObject> => {
    const id = next++;
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
    };
    const response = new Promise<JsonObject>((resolve) => waiting.set(id, resolve));
    await clientTransport.send({ jsonrpc: '2.0', id, method, params: { _meta, ...params } });
    return (await response).result as JsonObject;
  };
  const attempt = (job: TaskJob, given: Partial<TaskAttempt> = {}): TaskAttempt => ({
    job,
    attempt: 1,
    checkpoint: undefined,
    answers: {},
    signal: new AbortController().signal,
    saveCheckpoint: (state) => {
      checkpoints.push(state);
      return Promise.resolve();
    },
    confirm: () => Promise.resolve(),
    ...given,
  });
  return { server, store, executor, send, attempt, checkpoints };
}

describe('a task run by an executor', () => {
  it('is stored and queued, then completed by an attempt resuming from its checkpoint', async () => {
    const { server, store, executor, send, attempt, checkpoints } = await setUp();
    const created = await send('tools/call', { name: 'steps', arguments: {} });
    const taskId = String(created.taskId);
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(executor.jobs).toEqual([expect.objectContaining({ taskId, tool: 'steps', protocolVersion: '2026-07-28', arguments: {} })]);
    expect(store.get(taskId)?.task.status).toBe('working');

    const [job] = executor.jobs as [TaskJob];
    expect(await server.taskJobs.run(attempt(job, { attempt: 2, checkpoint: 4 }))).toEqual({ kind: 'finished' });
    expect(checkpoints).toEqual([5]);
    const done = await send('tasks/get', { taskId });
    expect(done).toMatchObject({ status: 'completed', statusMessage: 'step 5', result: { content: [{ type: 'text', text: 'from 4, attempt 2, key true' }] } });
    // A repeated attempt of a finished task does nothing.
    expect(await server.taskJobs.run(attempt(job))).toEqual({ kind: 'finished' });
    expect(checkpoints).toEqual([5]);
  });

  it('carries a digest of the owner of the task as its fairness key, never the owner; none for an unbound task', async () => {
    const bound = await setUp('principal:alice');
    await bound.send('tools/call', { name: 'steps' });
    const digest = createHash('sha256').update('principal:alice').digest('hex');
    expect(bound.executor.jobs[0]?.fairnessKey).toBe(digest);
    expect(JSON.stringify(bound.executor.jobs[0])).not.toContain('alice');
    const unbound = await setUp();
    await unbound.send('tools/call', { name: 'steps' });
    expect(unbound.executor.jobs[0]).not.toHaveProperty('fairnessKey');
  });

  it('asks to be retried, then fails with the cause the executor gives', async () => {
    const { server, executor, send, attempt } = await setUp();
    const taskId = String((await send('tools/call', { name: 'flaky' })).taskId);
    const [job] = executor.jobs as [TaskJob];
    expect(await server.taskJobs.run(attempt(job))).toEqual({ kind: 'retry', cause: 'try later' });
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'working' });
    await server.taskJobs.fail(taskId, 'The task failed after 1 attempts: try later');
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The task failed after 1 attempts: try later' } });
  });

  it('files an input request and releases the worker; the answer goes to the executor, and the next attempt gets it', async () => {
    const { server, executor, send, attempt } = await setUp();
    const taskId = String((await send('tools/call', { name: 'ask' })).taskId);
    const [job] = executor.jobs as [TaskJob];
    const outcome = await server.taskJobs.run(attempt(job));
    expect(outcome.kind).toBe('input');
    expect(outcome.kind === 'input' ? await outcome.parked() : undefined).toEqual({ answers: {}, complete: false });
    const waiting = await send('tasks/get', { taskId });
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create' } } });

    await send('tasks/update', { taskId, inputResponses: { 'input-1': { action: 'accept', content: { name: 'Ada' } } } });
    expect(executor.answers).toEqual([[taskId, { 'input-1': { action: 'accept', content: { name: 'Ada' } } }, true]]);
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'working' });
    const answers = { 'input-1': { action: 'accept', content: { name: 'Ada' } } };
    expect(await server.taskJobs.run(attempt(job, { answers }))).toEqual({ kind: 'finished' });
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'hello Ada' }] } });
  });

  it('files the input requests a handler makes together in one attempt, and completes once both are answered', async () => {
    const { server, executor, send, attempt } = await setUp();
    server.registerTool('two', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
      const schema = { type: 'object', properties: { value: { type: 'string' } } } as const;
      const [first, second] = await Promise.all([extra.elicit({ message: 'First?', requestedSchema: schema }), extra.elicit({ message: 'Second?', requestedSchema: schema })]);
      return { content: [{ type: 'text', text: `${String(first.content?.['value'])} ${String(second.content?.['value'])}` }] };
    });
    const taskId = String((await send('tools/call', { name: 'two' })).taskId);
    const [job] = executor.jobs as [TaskJob];
    const outcome = await server.taskJobs.run(attempt(job));
    expect(outcome.kind === 'input' ? await outcome.parked() : outcome).toEqual({ answers: {}, complete: false });
    const waiting = await send('tasks/get', { taskId });
    expect(Object.keys(waiting.inputRequests as JsonObject).sort()).toEqual(['input-1', 'input-2']);
    const answers = { 'input-1': { action: 'accept', content: { value: 'a' } }, 'input-2': { action: 'accept', content: { value: 'b' } } };
    await send('tasks/update', { taskId, inputResponses: answers });
    expect(executor.answers).toEqual([[taskId, answers, true]]);
    expect(await server.taskJobs.run(attempt(job, { answers }))).toEqual({ kind: 'finished' });
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'a b' }] } });
  });

  it('cancelled while queued: the job is dropped, and an attempt that took it anyway runs nothing', async () => {
    const { server, executor, send, attempt, checkpoints } = await setUp();
    const taskId = String((await send('tools/call', { name: 'steps' })).taskId);
    await send('tasks/cancel', { taskId });
    expect(executor.dropped).toEqual([taskId]);
    expect(await server.taskJobs.run(attempt(executor.jobs[0] as TaskJob))).toEqual({ kind: 'finished' });
    expect(checkpoints).toEqual([]);
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
  });

  it('interrupted by the worker (a drain): the handler sees its signal and the job goes back', async () => {
    const { server, executor, send, attempt } = await setUp();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    server.registerTool('wait', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
      started();
      await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [{ type: 'text', text: 'stopped' }] };
    });
    const taskId = String((await send('tools/call', { name: 'wait' })).taskId);
    const drain = new AbortController();
    const run = server.taskJobs.run(attempt(executor.jobs[0] as TaskJob, { signal: drain.signal }));
    await running;
    drain.abort(new Error('draining'));
    expect(await run).toEqual({ kind: 'interrupted' });
    expect(await send('tasks/get', { taskId })).toMatchObject({ status: 'working' });
  });
});
