/**
 * Task moves in `inspect`: the server that runs an extension task and the client that drives it
 * each publish the task machine's transitions as `task.transition` events of their session.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, SimulatedClock, TASKS_EXTENSION_ID, withExtension, type InspectEvent } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../index.js';
import { flush } from '../test-harness.js';

type TaskEvent = Extract<InspectEvent, { type: 'task.transition' }>;

function taskEvents(events: readonly InspectEvent[]): TaskEvent[] {
  return events.filter((event): event is TaskEvent => event.type === 'task.transition');
}

async function pair(serverEvents: InspectEvent[], clientEvents: InspectEvent[]) {
  const clock = new SimulatedClock();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const mcp = new McpServer({ name: 'task-server', version: '1.0.0' }, { taskExtension: { pollIntervalMs: 100 }, inspect: (event) => serverEvents.push(event) });
  mcp.registerTool('confirm', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Go on?', requestedSchema: { type: 'object', properties: {} } });
    await gate;
    return { content: [{ type: 'text', text: answer.action }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await mcp.connect(serverSide);
  const client = new Client(
    { name: 'task-client', version: '1.0.0' },
    { era: 'modern', clock, capabilities: withExtension({}, TASKS_EXTENSION_ID), onElicitation: async () => ({ action: 'accept', content: {} }), inspect: (event) => clientEvents.push(event) },
  );
  await client.connect(clientSide);
  return { client, clock, release };
}

/** Fires the client's poll timer until `done` settles. */
async function drive<T>(clock: SimulatedClock, done: Promise<T>): Promise<T> {
  let settled = false;
  const mark = (): void => void (settled = true);
  done.then(mark, mark);
  for (let i = 0; i < 50 && !settled; i++) {
    await flush();
    clock.advance(100);
  }
  return done;
}

describe('task transitions in inspect', () => {
  it('shows the server and the client walking the task machine: created, input_required, working, completed', async () => {
    const serverEvents: InspectEvent[] = [];
    const clientEvents: InspectEvent[] = [];
    const { client, clock, release } = await pair(serverEvents, clientEvents);
    const call = client.callTool({ name: 'confirm', arguments: {} });
    await flush();
    release();
    await drive(clock, call);

    const onServer = taskEvents(serverEvents);
    expect(onServer.map((event) => [event.from, event.to, event.event])).toEqual([
      ['working', 'working', 'created'],
      ['working', 'input_required', 'needInput'],
      ['input_required', 'working', 'inputReceived'],
      ['working', 'completed', 'complete'],
    ]);
    const created = serverEvents.find((event) => event.type === 'request.transition' && event.method === 'tools/call' && event.direction === 'inbound');
    expect(onServer.every((event) => event.side === 'server' && event.tool === 'confirm' && event.taskId === onServer[0]?.taskId)).toBe(true);
    expect(onServer[0]?.requestId).toBe(created?.type === 'request.transition' ? created.requestId : undefined);
    expect(onServer[0]?.sessionId).toBe(created?.sessionId);

    const onClient = taskEvents(clientEvents);
    expect(onClient[0]).toMatchObject({ side: 'client', tool: 'confirm', taskId: onServer[0]?.taskId, from: 'working', to: 'working', event: 'created' });
    expect(onClient.at(-1)).toMatchObject({ to: 'completed' });
    for (const event of onClient.slice(1)) expect(event.event).not.toBe('created');
    await client.close();
  });

  it('reports a cancelled task as cancel on both sides', async () => {
    const serverEvents: InspectEvent[] = [];
    const clientEvents: InspectEvent[] = [];
    const { client, clock } = await pair(serverEvents, clientEvents);
    const call = client.callTool({ name: 'confirm', arguments: {} }, { onTask: (task) => void task.cancel() });
    await expect(drive(clock, call)).rejects.toThrow(/cancelled/);
    expect(taskEvents(serverEvents).at(-1)).toMatchObject({ to: 'cancelled', event: 'cancel' });
    expect(taskEvents(clientEvents).at(-1)).toMatchObject({ to: 'cancelled', event: 'cancel' });
    await client.close();
  });
});
