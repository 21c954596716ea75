/**
 * Multi Round-Trip Requests on the serving side: one handler that calls `ctx.elicit()` (and
 * friends) serves a 2025-11-25 client with a server-to-client request and a 2026-07-28 client
 * with `InputRequiredResult` rounds; the sealed `requestState` is checked on every retry.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, type InspectEvent, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer, type McpServerOptions } from './index.js';

const MODERN = '2026-07-28';
const ALL_CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const KEY = 'k'.repeat(32);

function meta(capabilities: JsonObject): JsonObject {
  return { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities };
}

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** The server of every test: the handlers are written once, for both eras. */
function mrtrServer(options: McpServerOptions = {}): McpServer {
  const server = new McpServer({ name: 'mrtr', version: '1.0.0' }, { requestState: { key: KEY }, ...options });
  server.registerTool('greet', {}, async (_args, extra) => {
    const answer = await extra.elicit(
      { message: 'What is your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
      { inputKey: 'user_name' },
    );
    return text(answer.action === 'accept' ? `Hello, ${String(answer.content?.name)}!` : 'Hello, stranger!');
  });
  server.registerTool('two_steps', {}, async (_args, extra) => {
    const first = await extra.elicit({ message: 'Step 1', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } });
    const second = await extra.elicit({ message: 'Step 2', requestedSchema: { type: 'object', properties: { color: { type: 'string' } } } });
    return text(`${String(first.content?.name)} likes ${String(second.content?.color)}`);
  });
  server.registerTool('everything', {}, async (_args, extra) => {
    const [name, sample, roots] = await Promise.all([
      extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'name' }),
      extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }], maxTokens: 10 }, { inputKey: 'greeting' }),
      extra.listRoots({ inputKey: 'roots' }),
    ]);
    const greeting = Array.isArray(sample.content) ? '' : sample.content.type === 'text' ? sample.content.text : '';
    return text(`${greeting} ${String(name.content?.name)} (${roots.roots.length} roots)`);
  });
  server.registerPrompt('contextual', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Context?', requestedSchema: { type: 'object', properties: { context: { type: 'string' } } } });
    return { messages: [{ role: 'user', content: { type: 'text', text: `Context: ${String(answer.content?.context)}` } }] };
  });
  return server;
}

/** A raw 2026-07-28 peer: sends requests by hand and waits for each response (event-driven). */
async function modernPeer(server: McpServer) {
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const waiting = new Map<unknown, (message: JsonObject) => void>();
  await clientTransport.start({
    onMessage: (value) => {
      const message = value as JsonObject;
      waiting.get(message.id)?.(message);
    },
    onClose: () => undefined,
  });
  await server.connect(serverTransport);
  let next = 1;
  return async (method: string, params: JsonObject, capabilities: JsonObject = ALL_CAPABILITIES): Promise<JsonObject> => {
    const id = next++;
    const response = new Promise<JsonObject>((resolve) => waiting.set(id, resolve));
    await clientTransport.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(capabilities) } });
    return response;
  };
}

function resultOf(response: JsonObject): JsonObject {
  if (response.error !== undefined) throw new Error(`unexpected error ${JSON.stringify(response.error)}`);
  return response.result as JsonObject;
}

async function clientFor(era: 'auto' | 'legacy', server: McpServer, names: string[]): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client(
    { name: 'mrtr-client', version: '1.0.0' },
    {
      era,
      onElicitation: (params) => {
        const next = names.shift() ?? 'nobody';
        return { action: 'accept', content: params.message === 'Step 2' ? { color: next } : { name: next } };
      },
    },
  );
  await client.connect(clientSide);
  return client;
}

describe('ctx.elicit() in both eras', () => {
  it('sends elicitation/create to a 2025-11-25 client and resumes the handler with its answer', async () => {
    const client = await clientFor('legacy', mrtrServer(), ['Ada']);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.callTool({ name: 'greet' })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect((await client.callTool({ name: 'two_steps' })).content).toEqual([{ type: 'text', text: 'nobody likes nobody' }]);
    await client.close();
  });

  it('runs the same handler through InputRequiredResult rounds with a 2026-07-28 client', async () => {
    const client = await clientFor('auto', mrtrServer(), ['Ada', 'Grace', 'blue']);
    expect(client.protocolVersion).toBe(MODERN);
    expect((await client.callTool({ name: 'greet' })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect((await client.callTool({ name: 'two_steps' })).content).toEqual([{ type: 'text', text: 'Grace likes blue' }]);
    await client.close();
  });
});

describe('runInputRound', () => {
  it('answers an unanswered elicitation with an InputRequiredResult keyed as asked, then completes on the retry', async () => {
    const call = await modernPeer(mrtrServer());
    const first = resultOf(await call('tools/call', { name: 'greet', arguments: {} }));
    expect(first.resultType).toBe('input_required');
    expect(Object.keys(first.inputRequests as JsonObject)).toEqual(['user_name']);
    expect((first.inputRequests as Record<string, JsonObject>).user_name?.method).toBe('elicitation/create');
    expect(typeof first.requestState).toBe('string');
    const second = resultOf(
      await call('tools/call', { name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } }, requestState: first.requestState }),
    );
    expect(second.resultType).toBe('complete');
    expect(second.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  });

  it('names the server in the _meta of every result of an attempt, a handler\'s own _meta kept (MCP 2026-07-28 basic/index §_meta)', async () => {
    const server = mrtrServer();
    server.registerTool('own_meta', {}, () => ({ ...text('x'), _meta: { 'com.example/k': 1 } }));
    server.registerTool('later', {}, async () => text('later'));
    const call = await modernPeer(server);
    const info = { name: 'mrtr', version: '1.0.0' };
    const asked = resultOf(await call('tools/call', { name: 'greet', arguments: {} }));
    expect(asked._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': info });
    const answered = resultOf(
      await call('tools/call', { name: 'greet', arguments: {}, inputResponses: { user_name: { action: 'decline' } }, requestState: asked.requestState }),
    );
    expect(answered).toMatchObject({ resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': info } });
    expect(resultOf(await call('tools/call', { name: 'later' }))._meta).toEqual({ 'io.modelcontextprotocol/serverInfo': info });
    expect(resultOf(await call('tools/call', { name: 'own_meta' }))._meta).toEqual({ 'com.example/k': 1, 'io.modelcontextprotocol/serverInfo': info });
    const quiet = await modernPeer(mrtrServer({ serverInfoInResults: false }));
    expect(resultOf(await quiet('tools/call', { name: 'greet', arguments: {} }))._meta).toBeUndefined();
  });

  it('carries earlier answers in the state across rounds, with a new state each round', async () => {
    const call = await modernPeer(mrtrServer());
    const r1 = resultOf(await call('tools/call', { name: 'two_steps' }));
    expect(Object.keys(r1.inputRequests as JsonObject)).toEqual(['elicitation-1']);
    const r2 = resultOf(await call('tools/call', { name: 'two_steps', inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada' } } }, requestState: r1.requestState }));
    expect(r2.resultType).toBe('input_required');
    expect(Object.keys(r2.inputRequests as JsonObject)).toEqual(['elicitation-2']);
    expect(r2.requestState).not.toBe(r1.requestState);
    const r3 = resultOf(await call('tools/call', { name: 'two_steps', inputResponses: { 'elicitation-2': { action: 'accept', content: { color: 'red' } } }, requestState: r2.requestState }));
    expect(r3.content).toEqual([{ type: 'text', text: 'Ada likes red' }]);
  });

  it('gathers the input requests a handler makes in parallel into one round', async () => {
    const call = await modernPeer(mrtrServer());
    const r1 = resultOf(await call('tools/call', { name: 'everything' }));
    const requests = r1.inputRequests as Record<string, JsonObject>;
    expect(Object.fromEntries(Object.entries(requests).map(([key, request]) => [key, request.method]))).toEqual({
      name: 'elicitation/create',
      greeting: 'sampling/createMessage',
      roots: 'roots/list',
    });
    const inputResponses = {
      name: { action: 'accept', content: { name: 'Ada' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hi' }, model: 'm' },
      roots: { roots: [{ uri: 'file:///a' }] },
    };
    const r2 = resultOf(await call('tools/call', { name: 'everything', inputResponses, requestState: r1.requestState }));
    expect(r2.content).toEqual([{ type: 'text', text: 'Hi Ada (1 roots)' }]);
  });

  it('serves prompts/get in rounds too', async () => {
    const call = await modernPeer(mrtrServer());
    const r1 = resultOf(await call('prompts/get', { name: 'contextual' }));
    expect(r1.resultType).toBe('input_required');
    const r2 = resultOf(await call('prompts/get', { name: 'contextual', inputResponses: { 'elicitation-1': { action: 'accept', content: { context: 'tests' } } } }));
    expect(r2.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Context: tests' } }]);
  });

  it('asks again when the retry lacks the answer, and ignores answers nobody asked for', async () => {
    const call = await modernPeer(mrtrServer());
    const missing = resultOf(await call('tools/call', { name: 'greet', inputResponses: { wrong_key: { action: 'accept', content: {} } } }));
    expect(Object.keys(missing.inputRequests as JsonObject)).toEqual(['user_name']);
    const extra = resultOf(
      await call('tools/call', { name: 'greet', inputResponses: { user_name: { action: 'accept', content: { name: 'Bo' } }, other: { action: 'decline' } } }),
    );
    expect(extra.content).toEqual([{ type: 'text', text: 'Hello, Bo!' }]);
  });

  it('refuses an answer of the wrong kind with -32602', async () => {
    const call = await modernPeer(mrtrServer());
    const response = await call('tools/call', { name: 'greet', inputResponses: { user_name: { roots: [] } } });
    expect((response.error as JsonObject).code).toBe(-32602);
  });

  it('refuses an input request the client did not declare with -32021 naming the capability', async () => {
    const call = await modernPeer(mrtrServer());
    const response = await call('tools/call', { name: 'greet' }, { sampling: {} });
    expect(response.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } });
  });

  it('shows the round as waitingForInput in inspect before it completes', async () => {
    const events: InspectEvent[] = [];
    const call = await modernPeer(mrtrServer({ inspect: (event) => events.push(event) }));
    await call('tools/call', { name: 'greet' });
    const steps = events.filter((event) => event.type === 'request.transition' && event.direction === 'inbound' && event.method === 'tools/call').map((event) => (event.type === 'request.transition' ? event.to : ''));
    expect(steps).toEqual(['created', 'dispatched', 'processing', 'waitingForInput', 'completed']);
    const waiting = events.find((event) => event.type === 'request.transition' && event.to === 'waitingForInput');
    expect(waiting).toMatchObject({ input: { keys: ['user_name'] } });
  });
});

describe('requestState', () => {
  async function firstState(call: Awaited<ReturnType<typeof modernPeer>>): Promise<string> {
    return resultOf(await call('tools/call', { name: 'greet' })).requestState as string;
  }
  const answer = { user_name: { action: 'accept', content: { name: 'Eve' } } };

  it('rejects a tampered state with -32602', async () => {
    const call = await modernPeer(mrtrServer());
    const state = await firstState(call);
    const response = await call('tools/call', { name: 'greet', inputResponses: answer, requestState: `${state}-TAMPERED` });
    expect(response.error).toMatchObject({ code: -32602 });
    const flipped = `${state.slice(0, 5)}${state[5] === 'A' ? 'B' : 'A'}${state.slice(6)}`;
    expect(((await call('tools/call', { name: 'greet', inputResponses: answer, requestState: flipped })).error as JsonObject).code).toBe(-32602);
  });

  it('rejects a state issued for another request or by a server with another key', async () => {
    const call = await modernPeer(mrtrServer());
    const state = await firstState(call);
    const otherTool = await call('tools/call', { name: 'two_steps', inputResponses: answer, requestState: state });
    expect((otherTool.error as JsonObject).message).toMatch(/issued for other params/);
    const otherKey = await modernPeer(mrtrServer({ requestState: { key: 'x'.repeat(32) } }));
    expect(((await otherKey('tools/call', { name: 'greet', inputResponses: answer, requestState: state })).error as JsonObject).message).toMatch(/integrity/);
  });

  it('rejects an expired state', async () => {
    let now = 1_000_000;
    const call = await modernPeer(mrtrServer({ requestState: { key: KEY, ttlMs: 1000, now: () => now } }));
    const state = await firstState(call);
    now += 1000;
    expect(((await call('tools/call', { name: 'greet', inputResponses: answer, requestState: state })).error as JsonObject).message).toMatch(/expired/);
  });

  it('accepts a retry that lists the same params in another key order', async () => {
    const call = await modernPeer(mrtrServer());
    const first = resultOf(await call('tools/call', { name: 'greet', arguments: { a: 1, b: { c: 2, d: 3 } } }));
    const retry = resultOf(await call('tools/call', { inputResponses: answer, requestState: first.requestState, arguments: { b: { d: 3, c: 2 }, a: 1 }, name: 'greet' }));
    expect(retry.content).toEqual([{ type: 'text', text: 'Hello, Eve!' }]);
  });

  it('refuses a key shorter than 32 bytes', () => {
    expect(() => mrtrServer({ requestState: { key: 'short' } })).toThrow(RangeError);
  });
});
