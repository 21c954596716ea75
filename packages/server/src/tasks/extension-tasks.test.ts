import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport, TASKS_EXTENSION_ID, type AuthInfo, type DetailedTask, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, type McpServerOptions } from '../mcp-server.js';
import { flush } from '../test-harness.js';
import type { DurableTaskStore, StoredTask } from './durable-store.js';

const TASKS = { extensions: { [TASKS_EXTENSION_ID]: {} } };

function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** A raw 2026-07-28 peer; each call names its own client capabilities and identity. */
async function modernPeer(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const waiting = new Map<unknown, (response: JsonObject) => void>();
  const notifications: JsonObject[] = [];
  const onMessage = (value: unknown): void => {
    const message = value as JsonObject;
    if (message.id === undefined) notifications.push(message);
    else waiting.get(message.id)?.(message);
  };
  await clientTransport.start({ onMessage, onClose: () => undefined });
  await server.connect(serverTransport);
  let next = 1;
  const send = async (method: string, params: JsonObject, capabilities: JsonObject, client: string): Promise<JsonObject> => {
    const id = next++;
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      'io.modelcontextprotocol/clientInfo': { name: client, version: '1' },
    };
    const response = new Promise<JsonObject>((resolve) => waiting.set(id, resolve));
    await clientTransport.send({ jsonrpc: '2.0', id, method, params: { _meta, ...params } });
    return response.finally(() => waiting.delete(id));
  };
  return {
    notifications,
    /** Opens a `subscriptions/listen` stream (its id is `listen-<n>`) without waiting for its end; resolves once acknowledged or refused. */
    async listen(filter: JsonObject, capabilities: JsonObject = TASKS): Promise<{ id: string; refused?: JsonObject }> {
      const id = `listen-${next++}`;
      const _meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': capabilities, 'io.modelcontextprotocol/clientInfo': { name: 'listener', version: '1' } };
      const answered = new Promise<JsonObject>((resolve) => waiting.set(id, resolve));
      await clientTransport.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta, notifications: filter } });
      const acknowledged = new Promise<void>((resolve) => {
        const check = (): void => {
          if (notifications.some((message) => message.method === 'notifications/subscriptions/acknowledged' && ((message.params as JsonObject)._meta as JsonObject)['io.modelcontextprotocol/subscriptionId'] === id)) resolve();
          else setImmediate(check);
        };
        check();
      });
      const first = await Promise.race([answered, acknowledged.then(() => undefined)]);
      return first?.error === undefined ? { id } : { id, refused: first.error as JsonObject };
    },
    /** Sends the following requests as verified principal `subject` (an `AuthInfo` on the transport), or without auth. */
    actAs(subject: string | undefined): void {
      clientTransport.context = subject === undefined ? undefined : { authInfo: principal(subject) };
    },
    /** The result, or throws with the error object. */
    async call(method: string, params: JsonObject = {}, capabilities: JsonObject = { ...TASKS, elicitation: {} }, client = 'alice'): Promise<JsonObject> {
      const response = await send(method, params, capabilities, client);
      if (response.error !== undefined) throw Object.assign(new Error('rpc error'), response.error as JsonObject);
      return response.result as JsonObject;
    },
    async error(method: string, params: JsonObject = {}, capabilities: JsonObject = TASKS, client = 'alice'): Promise<{ code: number; data?: JsonObject }> {
      const response = await send(method, params, capabilities, client);
      if (response.error === undefined) throw new Error(`${method} succeeded`);
      return response.error as { code: number; data?: JsonObject };
    },
  };
}

/** A verified principal as the authorization layer hands it over. */
function principal(subject: string): AuthInfo {
  return { token: `token-of-${subject}-${Math.random()}`, clientId: 'shared-client', scopes: [], tokenType: 'Bearer', issuer: 'https://as.example', subject, claims: { sub: subject } };
}

function taskServer(options: McpServerOptions = {}) {
  const gate = deferred();
  const signals: AbortSignal[] = [];
  const server = new McpServer({ name: 'tasks', version: '1' }, options);
  server.registerTool('slow', { inputSchema: { label: z.string() }, execution: { taskSupport: 'optional' } }, async ({ label }, extra) => {
    signals.push(extra.signal);
    await gate.promise;
    return { content: [{ type: 'text', text: `done ${label}` }] };
  });
  server.registerTool('only_task', { execution: { taskSupport: 'required' } }, () => ({ content: [{ type: 'text', text: 'ran' }] }));
  server.registerTool('crash', { execution: { taskSupport: 'optional' } }, () => {
    throw Object.assign(new Error('boom'), { name: 'Error' });
  });
  server.registerTool('ask_twice', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const schema = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };
    const first = await extra.elicit({ message: 'first?', requestedSchema: schema });
    const second = await extra.elicit({ message: 'second?', requestedSchema: schema });
    return { content: [{ type: 'text', text: `${first.action}/${second.action}` }] };
  });
  server.registerTool('ask_both', { execution: { taskSupport: 'optional' } }, async (_args, extra) => {
    const schema = { type: 'object' as const, properties: {} };
    const answers = await Promise.all([extra.elicit({ message: 'a', requestedSchema: schema }), extra.elicit({ message: 'b', requestedSchema: schema })]);
    return { content: [{ type: 'text', text: answers.map((answer) => answer.action).join('+') }] };
  });
  server.registerTool('greet_later', { execution: { taskSupport: 'required' }, deferTask: true }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'user_name' });
    if (answer.action !== 'accept') return { content: [{ type: 'text', text: 'nobody to greet' }] };
    await extra.continueAsTask();
    signals.push(extra.signal);
    await gate.promise;
    return { content: [{ type: 'text', text: `Hello, ${String(answer.content?.name)}` }] };
  });
  return { server, gate, signals };
}

describe('ExtensionTasks', () => {
  describe('#start', () => {
    it('answers a declaring request with a flat CreateTaskResult that tasks/get resolves at once', async () => {
      const { server, gate } = taskServer();
      const peer = await modernPeer(server);
      const created = await peer.call('tools/call', { name: 'slow', arguments: { label: 'x' } });
      expect(created).toMatchObject({ resultType: 'task', status: 'working', ttlMs: 3_600_000, pollIntervalMs: 500 });
      expect(created.taskId).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(await peer.call('tasks/get', { taskId: created.taskId })).toMatchObject({ resultType: 'complete', status: 'working' });
      gate.resolve();
      await flush();
      const done = await peer.call('tasks/get', { taskId: created.taskId });
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'done x' }] } });
      expect((done.result as JsonObject).resultType).toBeUndefined();
    });

    it('runs an optional tool inline when the request did not declare the extension', async () => {
      const { server, gate } = taskServer();
      gate.resolve();
      const peer = await modernPeer(server);
      const result = await peer.call('tools/call', { name: 'slow', arguments: { label: 'y' } }, {});
      expect(result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'done y' }] });
    });

    it('refuses a task-only tool without the extension with -32021 naming it', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      const error = await peer.error('tools/call', { name: 'only_task' }, {});
      expect(error.code).toBe(-32021);
      expect(error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } });
    });

    it('fails the task with the JSON-RPC error of a handler that breaks the protocol', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      server.registerTool('protocol_error', { execution: { taskSupport: 'optional' } }, async () => {
        const { JsonRpcError } = await import('@statemcp/protocol');
        throw new JsonRpcError(-32603, 'internal');
      });
      const created = await peer.call('tools/call', { name: 'protocol_error' });
      await flush();
      const failed = await peer.call('tasks/get', { taskId: created.taskId });
      expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'internal' } });
      expect(failed.result).toBeUndefined();
      const crashed = await peer.call('tools/call', { name: 'crash' });
      await flush();
      expect(await peer.call('tasks/get', { taskId: crashed.taskId })).toMatchObject({ status: 'completed', result: { isError: true } });
    });
  });

  describe('deferTask', () => {
    it('completes the MRTR round inline, then creates the task that finishes with the gathered answer', async () => {
      const { server, gate, signals } = taskServer();
      const peer = await modernPeer(server);
      const round = await peer.call('tools/call', { name: 'greet_later' });
      expect(round).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
      expect(round).not.toHaveProperty('taskId');
      const created = await peer.call('tools/call', { name: 'greet_later', inputResponses: { user_name: { action: 'accept', content: { name: 'Alice' } } }, requestState: round.requestState });
      expect(created).toMatchObject({ resultType: 'task', status: 'working' });
      expect(created).not.toHaveProperty('requestState');
      expect(created).not.toHaveProperty('inputRequests');
      expect(await peer.call('tasks/get', { taskId: created.taskId })).toMatchObject({ status: 'working' });
      await peer.call('tasks/cancel', { taskId: created.taskId });
      expect(signals[0]?.aborted).toBe(true);

      const again = await peer.call('tools/call', { name: 'greet_later', inputResponses: { user_name: { action: 'accept', content: { name: 'Bob' } } }, requestState: round.requestState });
      gate.resolve();
      await flush();
      expect(await peer.call('tasks/get', { taskId: again.taskId })).toMatchObject({ status: 'completed', result: { content: [{ text: 'Hello, Bob' }] } });
    });

    it('answers inline when the handler returns before it continues as a task', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      const round = await peer.call('tools/call', { name: 'greet_later' });
      const result = await peer.call('tools/call', { name: 'greet_later', inputResponses: { user_name: { action: 'decline' } }, requestState: round.requestState });
      expect(result).toMatchObject({ resultType: 'complete', content: [{ text: 'nobody to greet' }] });
      expect(result).not.toHaveProperty('taskId');
    });
  });

  describe('#update', () => {
    it('turns elicitations into inputRequests with keys never reused, answered through tasks/update', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      const { taskId } = await peer.call('tools/call', { name: 'ask_twice' });
      await flush();
      const first = await peer.call('tasks/get', { taskId });
      expect(first).toMatchObject({ status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create', params: { message: 'first?' } } } });
      const ack = await peer.call('tasks/update', { taskId, inputResponses: { nope: { action: 'accept' }, 'input-1': { action: 'accept', content: { ok: true } } } });
      expect(ack.resultType).toBe('complete');
      expect(ack).not.toHaveProperty('status');
      await flush();
      const second = await peer.call('tasks/get', { taskId });
      expect(Object.keys(second.inputRequests as JsonObject)).toEqual(['input-2']);
      await peer.call('tasks/update', { taskId, inputResponses: { 'input-2': { action: 'decline' } } });
      await flush();
      expect(await peer.call('tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ text: 'accept/decline' }] } });
    });

    it('keeps a task input_required until every outstanding request is answered', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      const { taskId } = await peer.call('tools/call', { name: 'ask_both' });
      await flush();
      expect(Object.keys((await peer.call('tasks/get', { taskId })).inputRequests as JsonObject)).toEqual(['input-1', 'input-2']);
      await peer.call('tasks/update', { taskId, inputResponses: { 'input-2': { action: 'accept', content: {} } } });
      const partial = await peer.call('tasks/get', { taskId });
      expect(partial.status).toBe('input_required');
      expect(Object.keys(partial.inputRequests as JsonObject)).toEqual(['input-1']);
      await peer.call('tasks/update', { taskId, inputResponses: { 'input-1': { action: 'cancel' } } });
      await flush();
      expect(await peer.call('tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ text: 'cancel+accept' }] } });
    });
  });

  describe('#cancel', () => {
    it('aborts the handler signal and stays cancelled when the handler finishes afterwards', async () => {
      const { server, gate, signals } = taskServer();
      const peer = await modernPeer(server);
      const { taskId } = await peer.call('tools/call', { name: 'slow', arguments: { label: 'z' } });
      const ack = await peer.call('tasks/cancel', { taskId });
      expect(ack.resultType).toBe('complete');
      expect(ack).not.toHaveProperty('taskId');
      expect(signals[0]?.aborted).toBe(true);
      gate.resolve();
      await flush();
      expect(await peer.call('tasks/get', { taskId })).toMatchObject({ status: 'cancelled' });
      expect((await peer.call('tasks/cancel', { taskId })).resultType).toBe('complete');
    });
  });

  describe('errors', () => {
    it('answers an unknown id with -32602, tasks/result and tasks/list with -32601, and a non-declaring request with -32021', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      expect((await peer.error('tasks/get', { taskId: 'nope' })).code).toBe(-32602);
      expect((await peer.error('tasks/update', { taskId: 'nope', inputResponses: {} })).code).toBe(-32602);
      expect((await peer.error('tasks/result', { taskId: 'nope' })).code).toBe(-32601);
      expect((await peer.error('tasks/list', {})).code).toBe(-32601);
      expect((await peer.error('tasks/get', { taskId: 'nope' }, {})).code).toBe(-32021);
    });

    it('hides a task from another authorization context', async () => {
      const { server, gate } = taskServer({ taskExtension: { owner: (extra) => extra.clientInfo?.name } });
      gate.resolve();
      const peer = await modernPeer(server);
      const { taskId } = await peer.call('tools/call', { name: 'slow', arguments: { label: 'mine' } }, TASKS, 'alice');
      expect((await peer.error('tasks/get', { taskId }, TASKS, 'mallory')).code).toBe(-32602);
      expect((await peer.error('tasks/cancel', { taskId }, TASKS, 'mallory')).code).toBe(-32602);
      expect((await peer.call('tasks/get', { taskId }, TASKS, 'alice')).status).toBe('completed');
    });

    it('binds a task to the verified principal: another one cannot get, update or cancel it', async () => {
      const { server, gate } = taskServer();
      const peer = await modernPeer(server);
      peer.actAs('alice');
      const { taskId } = await peer.call('tools/call', { name: 'ask_twice' });
      await flush();
      peer.actAs('bob');
      expect((await peer.error('tasks/get', { taskId })).code).toBe(-32602);
      expect((await peer.error('tasks/update', { taskId, inputResponses: { 'input-1': { action: 'accept', content: { ok: true } } } })).code).toBe(-32602);
      expect((await peer.error('tasks/cancel', { taskId })).code).toBe(-32602);
      peer.actAs(undefined);
      expect((await peer.error('tasks/get', { taskId })).code).toBe(-32602);
      peer.actAs('alice');
      expect(await peer.call('tasks/get', { taskId })).toMatchObject({ status: 'input_required', inputRequests: { 'input-1': { method: 'elicitation/create' } } });

      peer.actAs(undefined);
      gate.resolve();
      const unbound = await peer.call('tools/call', { name: 'slow', arguments: { label: 'anyone' } });
      peer.actAs('bob');
      expect((await peer.call('tasks/get', { taskId: unbound.taskId })).status).toBe('completed');
    });

    it('forgets a task once its ttlMs has passed (-32602)', async () => {
      let now = Date.parse('2026-11-25T00:00:00Z');
      const { server, gate } = taskServer({ taskExtension: { ttlMs: 60_000, now: () => now } });
      gate.resolve();
      const peer = await modernPeer(server);
      const { taskId, createdAt } = await peer.call('tools/call', { name: 'slow', arguments: { label: 'ttl' } });
      expect(createdAt).toBe('2026-11-25T00:00:00.000Z');
      now += 59_999;
      expect((await peer.call('tasks/get', { taskId })).ttlMs).toBe(60_000);
      now += 1;
      expect((await peer.error('tasks/get', { taskId })).code).toBe(-32602);
    });
  });

  describe('notifications/tasks', () => {
    it('goes to the listen streams that name the task and belong to its owner', async () => {
      const { server, gate } = taskServer();
      const peer = await modernPeer(server);
      peer.actAs('alice');
      const { taskId } = await peer.call('tools/call', { name: 'slow', arguments: { label: 'watched' } });
      const mine = await peer.listen({ taskIds: [taskId, 7] });
      const other = await peer.listen({ taskIds: ['someone-else'] });
      peer.actAs('bob');
      const foreign = await peer.listen({ taskIds: [taskId] });
      expect(foreign.refused).toBeUndefined();
      gate.resolve();
      await flush();
      const tasks = peer.notifications.filter((message) => message.method === 'notifications/tasks');
      expect(tasks).toHaveLength(1);
      const params = tasks[0]?.params as JsonObject;
      expect(params).toMatchObject({ taskId, status: 'completed', result: { content: [{ text: 'done watched' }] }, _meta: { 'io.modelcontextprotocol/subscriptionId': mine.id } });
      expect(params).not.toHaveProperty('resultType');
      expect(other.id).not.toBe(mine.id);
    });

    it('refuses a taskIds filter without the extension with -32021', async () => {
      const { server } = taskServer();
      const peer = await modernPeer(server);
      const { refused } = await peer.listen({ taskIds: ['x'] }, {});
      expect(refused).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } } });
    });
  });

  it('tells the notifier of every status change', async () => {
    const { server, gate } = taskServer();
    const seen: string[] = [];
    server.setTaskNotifier({ taskChanged: (task: DetailedTask) => seen.push(task.status) });
    const peer = await modernPeer(server);
    await peer.call('tools/call', { name: 'slow', arguments: { label: 'n' } });
    gate.resolve();
    await flush();
    expect(seen).toEqual(['completed']);
  });

  it('serves tasks/get for tasks created before a restart over a durable store', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'statemcp-tasks-')), 'tasks.json');
    const first = taskServer({ taskExtension: { store: new FileTaskStore(file) } });
    first.gate.resolve();
    const before = await modernPeer(first.server);
    const { taskId } = await before.call('tools/call', { name: 'slow', arguments: { label: 'durable' } });
    await flush();
    await first.server.close();

    const restarted = taskServer({ taskExtension: { store: new FileTaskStore(file) } });
    const after = await modernPeer(restarted.server);
    expect(await after.call('tasks/get', { taskId })).toMatchObject({ status: 'completed', result: { content: [{ text: 'done durable' }] } });
  });
});

/** A test double of a durable store: every record in one JSON file, read and written whole. */
class FileTaskStore implements DurableTaskStore {
  readonly #file: string;
  constructor(file: string) {
    this.#file = file;
  }
  #read(): Record<string, StoredTask> {
    return existsSync(this.#file) ? (JSON.parse(readFileSync(this.#file, 'utf8')) as Record<string, StoredTask>) : {};
  }
  #write(records: Record<string, StoredTask>): void {
    writeFileSync(this.#file, JSON.stringify(records));
  }
  create(record: StoredTask): void {
    this.#write({ ...this.#read(), [record.task.taskId]: record });
  }
  get(taskId: string): StoredTask | undefined {
    return this.#read()[taskId];
  }
  put(record: StoredTask): void {
    this.create(record);
  }
  delete(taskId: string): void {
    const { [taskId]: _gone, ...rest } = this.#read();
    this.#write(rest);
  }
}
