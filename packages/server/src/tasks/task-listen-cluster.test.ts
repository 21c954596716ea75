/**
 * `notifications/tasks` across the instances of a cluster: a task runs on instance A while the
 * listen stream naming it lives on instance B (another instance, or a job-queue worker, writes
 * its moves). The stream hears every move through the shared subscription store and the bus —
 * only when it was opened by the task's own authorization context.
 */
import { Client, type ListenNotification } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, TASKS_EXTENSION_ID, withExtension } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer, MemoryTaskStore } from '../index.js';
import { TestBus, TestSubscriptionStore } from '../test-cluster.js';
import { flush } from '../test-harness.js';

const TASKS = withExtension({}, TASKS_EXTENSION_ID);

/** Two instances sharing a task store, a bus and a subscription store; a task's owner is its client's name. */
function cluster(gate: Promise<void>): { a: McpServer; b: McpServer; bus: TestBus; store: TestSubscriptionStore } {
  const bus = new TestBus();
  const store = new TestSubscriptionStore();
  const tasks = new MemoryTaskStore();
  const instance = (id: string): McpServer => {
    const mcp = new McpServer(
      { name: `instance-${id}`, version: '1.0.0' },
      { cluster: { instanceId: id, bus, subscriptions: store }, taskExtension: { store: tasks, owner: (extra) => extra.clientInfo?.name } },
    );
    mcp.registerTool('report', { execution: { taskSupport: 'required' } }, async (_args, extra) => {
      await extra.task?.setStatusMessage?.('half way');
      await gate;
      return { content: [{ type: 'text', text: 'reported' }] };
    });
    return mcp;
  };
  return { a: instance('a'), b: instance('b'), bus, store };
}

async function connect(mcp: McpServer, name: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await mcp.connect(serverSide);
  // A clock that never moves: the client never polls; only pushed notifications move its handles.
  const client = new Client({ name, version: '1.0.0' }, { era: 'modern', clock: new SimulatedClock(), capabilities: TASKS });
  await client.connect(clientSide);
  return client;
}

describe('notifications/tasks in a cluster', () => {
  it('reaches the listen stream on another instance, of the owner only, and drives the handle there', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const { a, b, store } = cluster(gate);
    const creator = await connect(a, 'alice');
    const follower = await connect(b, 'alice');
    const stranger = await connect(b, 'mallory');
    const stop = new AbortController();
    const taskId = await new Promise<string>((resolve) => {
      void creator.callTool({ name: 'report' }, { onTask: (task) => resolve(task.taskId), signal: stop.signal }).catch(() => undefined);
    });

    const heard: ListenNotification[] = [];
    const strangerHeard: ListenNotification[] = [];
    const stream = await follower.listen({ taskIds: [taskId] });
    stream.onNotification((note) => heard.push(note));
    const foreign = await stranger.listen({ taskIds: [taskId] });
    foreign.onNotification((note) => strangerHeard.push(note));
    expect(stream.acknowledged).toEqual({ taskIds: [taskId] });
    // Each stream follows its own audience and the unbound one; no owner appears in the store.
    expect([...store.byKey.keys()].filter((key) => key.startsWith(`task:${taskId}:`))).toHaveLength(3);
    expect([...store.byKey.keys()].some((key) => key.includes('alice') || key.includes('mallory'))).toBe(false);

    const result = follower.task(taskId).result();
    open();
    expect((await result).content).toEqual([{ type: 'text', text: 'reported' }]);
    await flush();
    expect(heard.map((note) => [note.method, note.params.status])).toContainEqual(['notifications/tasks', 'completed']);
    expect(strangerHeard).toEqual([]);

    // A stream that ended follows nothing any more.
    await stream.close();
    await foreign.close();
    await flush();
    expect([...store.byKey.values()].every((subscribers) => subscribers.size === 0)).toBe(true);
    stop.abort();
    for (const client of [creator, follower, stranger]) await client.close();
  });
});
