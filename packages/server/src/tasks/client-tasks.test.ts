/**
 * statemcp's client and server over the tasks extension: `callTool` drives a task to its end
 * (polling on the injected clock, answering input requests with the client's own elicitation
 * handler, while still following the task), hands out the task handle, and a second client
 * picks up a task by id after the first one died mid-task.
 */
import { Client, type ListenHandle, type ToolTask } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, TASKS_EXTENSION_ID, withExtension, type TaskStatusKind } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../index.js';
import { flush } from '../test-harness.js';

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function server(gate: Promise<void>): McpServer {
  const mcp = new McpServer({ name: 'task-server', version: '1.0.0' }, { taskExtension: { pollIntervalMs: 100 } });
  mcp.registerTool('report', { inputSchema: { topic: z.string() }, execution: { taskSupport: 'optional' } }, async ({ topic }, extra) => {
    await gate;
    const answer = await extra.elicit({ message: `Publish the ${topic} report?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return { content: [{ type: 'text', text: `${topic}: ${answer.action}` }] };
  });
  return mcp;
}

type Answer = { action: 'accept'; content: { ok: boolean } } | { action: 'decline' };

async function connect(mcp: McpServer, clock: SimulatedClock, onElicitation: () => Promise<Answer> = async () => ({ action: 'accept', content: { ok: true } })): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await mcp.connect(serverSide);
  const client = new Client({ name: 'task-client', version: '1.0.0' }, { era: 'modern', clock, capabilities: TASKS, onElicitation });
  await client.connect(clientSide);
  return client;
}

/** Lets the client's poll timer fire until `done` settles. */
async function drive<T>(clock: SimulatedClock, done: Promise<T>): Promise<T> {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 50 && !settled; i++) {
    await flush();
    clock.advance(100);
  }
  return done;
}

describe('Client with the tasks extension', () => {
  it('returns the final result of a task as if inline, answering its input request through onElicitation', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const client = await connect(server(gate.promise), clock);
    const statuses: TaskStatusKind[] = [];
    let taskId = '';
    const call = client.callTool(
      { name: 'report', arguments: { topic: 'q3' } },
      {
        onTask: (task) => {
          taskId = task.taskId;
          statuses.push(task.last?.status ?? 'working');
        },
      },
    );
    await flush();
    gate.resolve();
    const result = await drive(clock, call);
    expect(result.content).toEqual([{ type: 'text', text: 'q3: accept' }]);
    expect(taskId).not.toBe('');
    expect(statuses).toEqual(['working']);
    await client.close();
  });

  it('lets a new client collect the result by id after the first one died mid-task', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const mcp = server(gate.promise);
    const first = await connect(mcp, clock);
    let taskId = '';
    const abandoned = first.callTool({ name: 'report', arguments: { topic: 'q4' } }, { onTask: (task) => (taskId = task.taskId) });
    abandoned.catch(() => undefined);
    await flush();
    expect(taskId).not.toBe('');
    await first.terminate();

    gate.resolve();
    const second = await connect(mcp, clock, async () => ({ action: 'decline' as const }));
    const handle = second.task(taskId);
    const seen: TaskStatusKind[] = [];
    const watching = (async () => {
      for await (const task of handle) seen.push(task.status);
    })();
    await drive(clock, watching);
    expect(seen[0]).toBe('input_required');
    expect(seen.at(-1)).toBe('completed');
    expect((await handle.result()).content).toEqual([{ type: 'text', text: 'q4: decline' }]);
    await second.close();
  });

  it('is driven by notifications/tasks while a listen stream names the task, and polls again once it drops', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const client = await connect(server(gate.promise), clock);
    const opened: Promise<ListenHandle>[] = [];
    const call = client.callTool({ name: 'report', arguments: { topic: 'pushed' } }, { onTask: (task) => opened.push(client.listen({ taskIds: [task.taskId] })) });
    await flush();
    const stream = await opened[0];
    expect(stream?.acknowledged).toEqual({ taskIds: [expect.any(String)] });
    gate.resolve();
    // The clock never moves: only the pushed states (input_required, then completed) can end the call.
    expect((await call).content).toEqual([{ type: 'text', text: 'pushed: accept' }]);

    const gate2 = deferred();
    const mcp = server(gate2.promise);
    const second = await connect(mcp, clock);
    let handle: ToolTask | undefined;
    const watched = second.callTool({ name: 'report', arguments: { topic: 'dropped' } }, { onTask: (task) => (handle = task) });
    await flush();
    const dropping = await second.listen({ taskIds: [handle?.taskId ?? ''] });
    await dropping.close();
    gate2.resolve();
    // With the stream gone the handle is back to polling on the clock.
    expect((await drive(clock, watched)).content).toEqual([{ type: 'text', text: 'dropped: accept' }]);
    await client.close();
    await second.close();
  });

  it('follows the task while an answer is awaited: a later input request is answered meanwhile', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const mcp = new McpServer({ name: 'task-server', version: '1.0.0' }, { taskExtension: { pollIntervalMs: 100 } });
    const ask = (message: string) => ({ message, requestedSchema: { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } } });
    mcp.registerTool('two_questions', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
      const first = extra.elicit(ask('first'));
      await gate.promise;
      const [a, b] = await Promise.all([first, extra.elicit(ask('second'))]);
      return { content: [{ type: 'text', text: `${a.action}, ${b.action}` }] };
    });
    const secondAsked = deferred();
    // The first answer waits until the second question was asked: a handle that stopped polling while answering would never see it.
    const client = await connect(mcp, clock, async () => ({ action: 'decline' as const }));
    client.onElicitation(async (params) => {
      if (params.message === 'second') {
        secondAsked.resolve();
        return { action: 'decline' };
      }
      gate.resolve();
      await secondAsked.promise;
      return { action: 'accept', content: { ok: true } };
    });
    const result = await drive(clock, client.callTool({ name: 'two_questions' }));
    expect(result.content).toEqual([{ type: 'text', text: 'accept, decline' }]);
    await client.close();
  });

  it('cancels through the handle and reports the cancellation', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const client = await connect(server(gate.promise), clock);
    const call = client.callTool({ name: 'report', arguments: { topic: 'q1' } }, { onTask: (task) => void task.cancel() });
    await expect(drive(clock, call)).rejects.toThrow(/cancelled/);
    await client.close();
  });
});
