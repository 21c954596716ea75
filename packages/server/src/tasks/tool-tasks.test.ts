import { ErrorCode, JsonRpcError, RELATED_TASK_META_KEY, SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../mcp-server.js';
import { flush, initializedClient } from '../test-harness.js';

const INFO = { name: 'task-server', version: '1.0.0' };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function taskServer(clock = new SimulatedClock()) {
  const server = new McpServer(INFO, { clock, tasks: { defaultTtlMs: 10_000, pollIntervalMs: 500 } });
  const gate = deferred<void>();
  server.registerTool('slow_compute', { inputSchema: { n: z.number() }, execution: { taskSupport: 'optional' } }, async ({ n }) => {
    await gate.promise;
    return { content: [{ type: 'text', text: `result ${n * 2}` }] };
  });
  server.registerTool('must_be_task', { execution: { taskSupport: 'required' } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
  server.registerTool('plain', {}, () => ({ content: [{ type: 'text', text: 'plain' }] }));
  server.registerTool('failing_job', { execution: { taskSupport: 'optional' } }, () => ({ content: [{ type: 'text', text: 'nope' }], isError: true }));
  server.registerTool('protocol_error_job', { execution: { taskSupport: 'optional' } }, () => {
    throw new JsonRpcError(ErrorCode.InvalidParams, 'bad job');
  });
  server.registerTool('confirm_delete', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Sure?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: `${extra.task?.taskId ?? 'no task'}:${answer.action}` }] };
  });
  return { server, gate, clock };
}

async function startTask(client: Awaited<ReturnType<typeof initializedClient>>['client'], name: string, args: JsonObject = {}) {
  const created = await client.request('tools/call', { name, arguments: args, task: { ttl: 60_000 } });
  return (created.task as { taskId: string; status: string; ttl: number }).taskId;
}

describe('ToolTasks', () => {
  describe('progress', () => {
    it('keeps the original progress token after CreateTaskResult and stops once the task is terminal', async () => {
      const clock = new SimulatedClock();
      const server = new McpServer(INFO, { clock });
      const step = deferred<void>();
      let report: ((n: number) => Promise<void>) | undefined;
      server.registerTool('reporting_job', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
        report = (n) => extra.sendProgress(n, 3);
        await extra.sendProgress(1, 3);
        await step.promise;
        await extra.sendProgress(2, 3);
        return { content: [{ type: 'text', text: 'done' }] };
      });
      const test = await initializedClient(server);
      const seen: number[] = [];
      const created = await test.client.request('tools/call', { name: 'reporting_job', arguments: {}, task: {} }, { onProgress: (p) => seen.push(p.progress) });
      const taskId = String((created.task as JsonObject).taskId);
      step.resolve();
      await test.client.request('tasks/result', { taskId });
      await report?.(3);
      await flush();
      expect(seen).toEqual([1, 2]);
    });
  });

  describe('tools/call with task', () => {
    it('declares the tasks capability only at 2025-11-25 and only with a task-capable tool', async () => {
      const { server } = taskServer();
      const current = await initializedClient(server);
      expect(current.client.peer?.capabilities.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
      const old = await initializedClient(server, { version: '2025-06-18' });
      expect(old.client.peer?.capabilities.tasks).toBeUndefined();
      const plain = new McpServer(INFO);
      plain.registerTool('t', {}, () => ({ content: [] }));
      expect((await initializedClient(plain)).client.peer?.capabilities.tasks).toBeUndefined();
    });

    it('returns a working task at once, then completes it; tasks/result returns the result with related-task meta', async () => {
      const { server, gate } = taskServer();
      const test = await initializedClient(server);
      const created = await test.client.request('tools/call', { name: 'slow_compute', arguments: { n: 21 }, task: { ttl: 999_999_999 } });
      const task = created.task as JsonObject;
      expect(task).toMatchObject({ status: 'working', ttl: 3_600_000, pollInterval: 500 });
      expect(typeof task.createdAt).toBe('string');
      const taskId = String(task.taskId);
      await expect(test.client.request('tasks/get', { taskId })).resolves.toMatchObject({ taskId, status: 'working' });
      const result = test.client.request('tasks/result', { taskId });
      await flush();
      gate.resolve();
      await expect(result).resolves.toEqual({ content: [{ type: 'text', text: 'result 42' }], _meta: { [RELATED_TASK_META_KEY]: { taskId } } });
      await expect(test.client.request('tasks/get', { taskId })).resolves.toMatchObject({ status: 'completed' });
      const statuses = test.notifications('notifications/tasks/status').map((m) => (m.params as JsonObject).status);
      expect(statuses).toEqual(['completed']);
    });

    it('marks an isError result failed and replays a protocol error from tasks/result', async () => {
      const { server } = taskServer();
      const test = await initializedClient(server);
      const failing = await startTask(test.client, 'failing_job');
      await expect(test.client.request('tasks/result', { taskId: failing })).resolves.toMatchObject({ isError: true });
      await expect(test.client.request('tasks/get', { taskId: failing })).resolves.toMatchObject({ status: 'failed' });
      const broken = await startTask(test.client, 'protocol_error_job');
      await expect(test.client.request('tasks/result', { taskId: broken })).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: 'bad job' });
    });

    it('enforces taskSupport: forbidden and required are -32601, optional runs directly without task', async () => {
      const { server } = taskServer();
      const test = await initializedClient(server);
      await expect(test.client.request('tools/call', { name: 'plain', task: {} })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
      await expect(test.client.request('tools/call', { name: 'must_be_task' })).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
      await expect(test.client.request('tools/call', { name: 'failing_job' })).resolves.toMatchObject({ isError: true, content: [{ text: 'nope' }] });
    });

    it('hides task-required tools from revisions without tasks', async () => {
      const { server } = taskServer();
      const old = await initializedClient(server, { version: '2025-06-18' });
      const { tools } = await old.client.request('tools/list');
      expect((tools as { name: string }[]).map((tool) => tool.name)).not.toContain('must_be_task');
      expect((tools as JsonObject[]).every((tool) => tool.execution === undefined)).toBe(true);
    });

    it('moves to input_required while the tool waits for the client, tagging the request with the task', async () => {
      const { server } = taskServer();
      const answer = deferred<JsonObject>();
      const test = await initializedClient(server, { capabilities: { elicitation: {} }, handlers: { 'elicitation/create': () => answer.promise } });
      const taskId = await startTask(test.client, 'confirm_delete');
      await flush();
      await expect(test.client.request('tasks/get', { taskId })).resolves.toMatchObject({ status: 'input_required' });
      expect((test.requests('elicitation/create')[0]?.params as JsonObject)._meta).toEqual({ [RELATED_TASK_META_KEY]: { taskId } });
      answer.resolve({ action: 'accept', content: { ok: true } });
      await expect(test.client.request('tasks/result', { taskId })).resolves.toMatchObject({ content: [{ text: `${taskId}:accept` }] });
      const statuses = test.notifications('notifications/tasks/status').map((m) => (m.params as JsonObject).status);
      expect(statuses).toEqual(['input_required', 'working', 'completed']);
    });
  });

  describe('tasks/cancel', () => {
    it('cancels a working task, aborts it, and refuses to cancel a terminal one with -32602', async () => {
      const { server, gate } = taskServer();
      const test = await initializedClient(server);
      const taskId = await startTask(test.client, 'slow_compute', { n: 1 });
      await expect(test.client.request('tasks/cancel', { taskId })).resolves.toMatchObject({ taskId, status: 'cancelled' });
      gate.resolve();
      await flush();
      await expect(test.client.request('tasks/get', { taskId })).resolves.toMatchObject({ status: 'cancelled' });
      await expect(test.client.request('tasks/cancel', { taskId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(test.client.request('tasks/result', { taskId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });
  });

  describe('tasks/get', () => {
    it('answers unknown ids, other connections\' tasks and expired tasks with -32602', async () => {
      const { server, clock } = taskServer();
      const owner = await initializedClient(server);
      const stranger = await initializedClient(server);
      const taskId = await startTask(owner.client, 'failing_job');
      await expect(stranger.client.request('tasks/get', { taskId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      await expect(owner.client.request('tasks/get', { taskId: 'nope' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
      clock.advance(60_000);
      await expect(owner.client.request('tasks/get', { taskId })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });
  });

  describe('connection close', () => {
    it('cancels the running tasks of a connection that ends', async () => {
      const { server } = taskServer();
      let signal: AbortSignal | undefined;
      server.registerTool('observed', { execution: { taskSupport: 'required' } }, (_args, extra) => {
        signal = extra.signal;
        return new Promise(() => {});
      });
      const test = await initializedClient(server);
      await startTask(test.client, 'observed');
      expect(signal?.aborted).toBe(false);
      await test.client.close();
      await test.connection.closed;
      await flush();
      expect(signal?.aborted).toBe(true);
    });
  });

  describe('tasks/list', () => {
    it('pages through this connection\'s tasks only', async () => {
      const clock = new SimulatedClock();
      const server = new McpServer(INFO, { clock, pageSize: 2 });
      server.registerTool('job', { execution: { taskSupport: 'required' } }, () => ({ content: [] }));
      const test = await initializedClient(server);
      const other = await initializedClient(server);
      await startTask(other.client, 'job');
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await startTask(test.client, 'job'));
      const first = await test.client.request('tasks/list');
      expect((first.tasks as JsonObject[]).map((task) => task.taskId)).toEqual(ids.slice(0, 2));
      const second = await test.client.request('tasks/list', { cursor: first.nextCursor as string });
      expect((second.tasks as JsonObject[]).map((task) => task.taskId)).toEqual(ids.slice(2));
      expect(second.nextCursor).toBeUndefined();
      await expect(test.client.request('tasks/list', { cursor: '%%%' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
    });
  });
});
