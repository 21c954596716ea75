/**
 * Tasks of an upstream surfaced through a composition (tasks extension): the gateway's call
 * becomes a task when the upstream runs it as one, the upstream task's input requests, result,
 * error and cancellation travel through the gateway task, and a caller without the extension
 * gets the result inline. Both clients poll on one simulated clock.
 */
import { Client, type ToolTask } from '@statemcp/client';
import { ErrorCode, InMemoryTransport, JsonRpcError, SimulatedClock, TASKS_EXTENSION_ID, withExtension, type DetailedTask } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from '../mcp-server.js';
import { flush, initializedClient } from '../test-harness.js';
import { compose, proxy } from './index.js';

const POLL_MS = 100;

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** An upstream with task tools; `tasks` collects every move of its tasks. */
function upstreamServer(gate: Promise<void>) {
  const server = new McpServer({ name: 'upstream', version: '1.0.0' }, { taskExtension: { pollIntervalMs: POLL_MS } });
  const tasks: DetailedTask[] = [];
  server.setTaskNotifier({ taskChanged: (task) => tasks.push(task) });
  server.registerTool('report', { inputSchema: { topic: z.string() }, execution: { taskSupport: 'optional' } }, async ({ topic }, extra) => {
    await gate;
    const answer = await extra.elicit({ message: `Publish the ${topic} report?`, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } } });
    return text(`${topic}: ${answer.action}`);
  });
  server.registerTool('crash', { execution: { taskSupport: 'required' } }, async () => {
    await gate;
    throw new JsonRpcError(ErrorCode.InternalError, 'The job crashed');
  });
  server.registerTool('workspace', { execution: { taskSupport: 'optional' } }, async (_args, extra) => text((await extra.listRoots()).roots.map((root) => root.uri).join(',')));
  let aborted = false;
  server.registerTool('endless', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    await new Promise<void>((resolve) => extra.signal.addEventListener('abort', () => resolve(), { once: true }));
    aborted = true;
    return text('stopped');
  });
  return { server, tasks, aborted: () => aborted };
}

async function gatewayOver(upstream: McpServer, clock: SimulatedClock, era: 'modern' | 'legacy' = 'modern') {
  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' }, { taskExtension: { pollIntervalMs: POLL_MS } });
  const composition = compose(gateway);
  const transport = async () => {
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await upstream.connect(serverSide);
    return clientSide;
  };
  await composition.mount('up', proxy(transport, { client: { clock, era } }));
  return { gateway, composition };
}

async function downstream(gateway: McpServer, clock: SimulatedClock, options: { era: 'modern' | 'legacy'; tasks: boolean }): Promise<Client> {
  const client = new Client(
    { name: 'downstream', version: '1.0.0' },
    {
      era: options.era,
      clock,
      ...(options.tasks ? { capabilities: withExtension({}, TASKS_EXTENSION_ID) } : {}),
      onElicitation: async () => ({ action: 'accept', content: { ok: true } }),
      roots: [{ uri: 'file:///work' }],
    },
  );
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await gateway.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

/** Lets both clients' poll timers fire until `condition` holds (a bounded number of turns: the work between polls takes real time). */
async function until(clock: SimulatedClock, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 5_000 && !condition(); i++) {
    await flush();
    clock.advance(POLL_MS);
  }
  expect(condition()).toBe(true);
}

/** Lets both clients' poll timers fire until `done` settles. */
async function drive<T>(clock: SimulatedClock, done: Promise<T>): Promise<T> {
  let settled = false;
  void done.then(
    () => (settled = true),
    () => (settled = true),
  );
  await until(clock, () => settled);
  return done;
}

describe('a task of an upstream, through the gateway', () => {
  it('is declared and listed as the upstream declares it', async () => {
    const clock = new SimulatedClock();
    const { server } = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(server, clock);
    expect(gateway.capabilities()).toMatchObject({ extensions: { [TASKS_EXTENSION_ID]: {} } });
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    const tools = await client.listAllTools();
    expect(tools.find((tool) => tool.name === 'up_report')?.execution).toEqual({ taskSupport: 'optional' });
    await client.close();
    await composition.close();
  });

  it('becomes a gateway task mapped to the upstream one, whose input request reaches the caller', async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const upstream = upstreamServer(gate.promise);
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    let surfaced: ToolTask | undefined;
    const call = client.callTool({ name: 'up_report', arguments: { topic: 'q3' } }, { onTask: (task) => (surfaced = task) });
    await until(clock, () => surfaced !== undefined);
    gate.resolve();
    const result = await drive(clock, call);
    expect(result.content).toEqual([{ type: 'text', text: 'q3: accept' }]);
    const upstreamIds = new Set(upstream.tasks.map((task) => task.taskId));
    expect(upstreamIds.size).toBe(1);
    expect(upstreamIds.has(surfaced?.taskId ?? '')).toBe(false); // the gateway's own id
    expect(upstream.tasks.map((task) => task.status)).toEqual(['input_required', 'working', 'completed']);
    await client.close();
    await composition.close();
  });

  it("drives the upstream task of a legacy caller's task-augmented call (2025-11-25 tasks)", async () => {
    const clock = new SimulatedClock();
    const gate = deferred();
    const upstream = upstreamServer(gate.promise);
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const test = await initializedClient(gateway, {
      capabilities: { elicitation: {}, tasks: { requests: { tools: { call: {} } } } },
      handlers: { 'elicitation/create': () => ({ action: 'accept', content: { ok: true } }) },
    });
    const created = await test.client.request('tools/call', { name: 'up_report', arguments: { topic: 'q1' }, task: {} });
    const taskId = String((created.task as { taskId: string }).taskId);
    gate.resolve();
    const result = await drive(clock, test.client.request('tasks/result', { taskId }));
    expect(result.content).toEqual([{ type: 'text', text: 'q1: accept' }]);
    expect(test.requests('elicitation/create')).toHaveLength(1); // asked within the gateway's legacy task
    expect(upstream.tasks.at(-1)?.status).toBe('completed'); // the upstream ran it as a task of its own
    await test.client.close();
    await composition.close();
  });

  it("answers the upstream task's roots request with the caller's roots", async () => {
    const clock = new SimulatedClock();
    const upstream = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    const result = await drive(clock, client.callTool({ name: 'up_workspace' }));
    expect(result.content).toEqual([{ type: 'text', text: 'file:///work' }]);
    expect(upstream.tasks.at(-1)?.status).toBe('completed');
    await client.close();
    await composition.close();
  });

  it("fails with the upstream task's JSON-RPC error", async () => {
    const clock = new SimulatedClock();
    const { server } = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(server, clock);
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    const call = client.callTool({ name: 'up_crash' });
    await expect(drive(clock, call)).rejects.toMatchObject({ code: ErrorCode.InternalError, message: 'The job crashed' });
    await client.close();
    await composition.close();
  });

  it('passes a cancellation of the gateway task upstream', async () => {
    const clock = new SimulatedClock();
    const upstream = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    let surfaced: ToolTask | undefined;
    const call = client.callTool({ name: 'up_endless' }, { onTask: (task) => (surfaced = task) });
    call.catch(() => undefined);
    await until(clock, () => surfaced !== undefined);
    await surfaced?.cancel();
    await until(clock, upstream.aborted);
    expect(upstream.tasks.at(-1)?.status).toBe('cancelled');
    await expect(drive(clock, call)).rejects.toBeInstanceOf(JsonRpcError);
    await client.close();
    await composition.close();
  });

  it.each(['modern', 'legacy'] as const)('is answered inline to a %s caller without the extension (no upstream task)', async (era) => {
    const clock = new SimulatedClock();
    const upstream = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const client = await downstream(gateway, clock, { era, tasks: false });
    const result = await client.callTool({ name: 'up_report', arguments: { topic: 'q4' } }); // no task: nothing polls
    expect(result.content).toEqual([{ type: 'text', text: 'q4: accept' }]);
    expect(upstream.tasks).toEqual([]);
    await client.close();
    await composition.close();
  });

  it('stays mounted when an upstream list change arrives during a call of a caller without the extension', async () => {
    const clock = new SimulatedClock();
    const upstream = upstreamServer(Promise.resolve());
    upstream.server.registerTool('churn', {}, () => {
      upstream.server.registerTool('churn_temporary', {}, () => text('temporary')).remove();
      return text('churned');
    });
    const { gateway, composition } = await gatewayOver(upstream.server, clock);
    const watcher = await downstream(gateway, clock, { era: 'legacy', tasks: false });
    const changed = new Promise<void>((resolve) => watcher.onToolsListChanged(resolve));
    const caller = await downstream(gateway, clock, { era: 'modern', tasks: false });
    await caller.callTool({ name: 'up_churn' });
    await changed;
    // The relisting states the gateway's capabilities (the extension), not the caller's: `crash` runs only as a task.
    expect((await watcher.listAllTools()).map((tool) => tool.name)).toContain('up_crash');
    await watcher.close();
    await caller.close();
    await composition.close();
  });

  it('is not offered for a legacy upstream: its tools are mounted without execution', async () => {
    const clock = new SimulatedClock();
    const { server } = upstreamServer(Promise.resolve());
    const { gateway, composition } = await gatewayOver(server, clock, 'legacy');
    expect(gateway.capabilities()).not.toHaveProperty('extensions');
    const client = await downstream(gateway, clock, { era: 'modern', tasks: true });
    const tools = await client.listAllTools();
    expect(tools.find((tool) => tool.name === 'up_report')).not.toHaveProperty('execution');
    await client.close();
    await composition.close();
  });
});
