/**
 * `McpServer.use` and `Client.use` with statemcp's client and server in memory, in both eras:
 * what each side's middleware sees (Multi Round-Trip rounds, input requests, tasks, custom
 * methods) and the ready-made rate limiter and audit logger.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, JsonRpcError, SimulatedClock, TASKS_EXTENSION_ID, withExtension, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer, MemoryTaskStore, RATE_LIMITED_ERROR_CODE, auditLog, rateLimit, type AuditRecord, type MiddlewareContext } from '../index.js';

/** A server whose `greet` tool asks for a name (a server request, or an MRTR round from 2026-07-28). */
function greeter(options: ConstructorParameters<typeof McpServer>[1] = {}): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' }, { requestState: { key: 'a secret of at least 32 bytes!!!' }, ...options });
  server.registerTool('greet', { description: 'Greets by name' }, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return { content: [{ type: 'text', text: `Hello, ${answer.action === 'accept' ? String(answer.content?.name) : 'stranger'}!` }] };
  });
  server.registerTool('echo', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
  return server;
}

async function connect(server: McpServer, era: 'legacy' | 'auto', setup?: (client: Client) => void): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'c', version: '1.0.0' }, { era, onElicitation: () => ({ action: 'accept', content: { name: 'Ada' } }) });
  setup?.(client);
  await client.connect(clientSide);
  return client;
}

/** `direction kind method` of each context a middleware saw. */
function trail(contexts: readonly MiddlewareContext[]): string[] {
  return contexts.map((c) => `${c.direction} ${c.kind} ${c.method}`);
}

describe('McpServer#use', () => {
  it('sees the legacy era: the tool call inbound, its elicitation outbound, and the client sees the elicitation inbound', async () => {
    const serverSaw: MiddlewareContext[] = [];
    const clientSaw: MiddlewareContext[] = [];
    const server = greeter().use((context, next) => (serverSaw.push(context), next()));
    const client = await connect(server, 'legacy', (c) => c.use(['tools/call', 'elicitation/create'], (context, next) => (clientSaw.push(context), next())));
    const result = await client.callTool({ name: 'greet' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(trail(serverSaw)).toEqual(expect.arrayContaining(['inbound request tools/call', 'outbound request elicitation/create', 'inbound notification notifications/initialized']));
    expect(serverSaw.find((c) => c.method === 'tools/call')?.era).toBe('legacy');
    expect(trail(clientSaw)).toEqual(['outbound request tools/call', 'inbound request elicitation/create']);
    await client.close();
  });

  it('sees each Multi Round-Trip round of the modern era as a request, and the client its input request', async () => {
    const rounds: JsonObject[] = [];
    const clientSaw: MiddlewareContext[] = [];
    const server = greeter().use('tools/call', (context, next) => (rounds.push(context.params), next()));
    const client = await connect(server, 'auto', (c) => c.use((context, next) => (clientSaw.push(context), next())));
    expect(client.era).toBe('modern');
    const result = await client.callTool({ name: 'greet' });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]).toHaveProperty('inputResponses');
    // The client's one call is one outbound request; its input request reaches onElicitation through the middleware.
    expect(trail(clientSaw).filter((t) => t.includes('tools/call') || t.includes('elicitation'))).toEqual(['outbound request tools/call', 'inbound request elicitation/create']);
    expect(clientSaw.find((c) => c.method === 'server/discover')?.direction).toBe('outbound');
    await client.close();
  });

  it('wraps the task methods of a tool run as a task', async () => {
    const methods: string[] = [];
    const server = new McpServer({ name: 'tasks', version: '1.0.0' }, { taskExtension: { store: new MemoryTaskStore({ maxTasks: 10 }), pollIntervalMs: 1 } });
    server.registerTool('slow', { execution: { taskSupport: 'optional' } }, () => ({ content: [{ type: 'text', text: 'done' }] }));
    server.use((context, next) => (methods.push(context.method), next()));
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    const client = new Client({ name: 'c', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
    await client.connect(clientSide);
    const result = await client.callTool({ name: 'slow' });
    expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
    expect(methods).toContain('tools/call');
    expect(methods.some((method) => method.startsWith('tasks/'))).toBe(true);
    await client.close();
  });

  it('wraps a custom method, and short-circuits it with a typed error', async () => {
    const server = greeter();
    server.server.method('com.example/search', { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) }, ({ query }) => ({ hits: [query] }));
    server.use('com.example/search', (context, next) => {
      if (context.params.query === 'forbidden') throw new JsonRpcError(-32001, 'Not allowed');
      return next();
    });
    const client = await connect(server, 'legacy');
    const spec = { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) };
    await expect(client.request('com.example/search', { query: 'x' }, spec)).resolves.toEqual({ hits: ['x'] });
    await expect(client.request('com.example/search', { query: 'forbidden' }, spec)).rejects.toMatchObject({ code: -32001, message: 'Not allowed' });
    await client.close();
  });
});

describe('rateLimit', () => {
  it('refuses a principal past its bucket with a server error carrying retryAfterMs, then lets it through once refilled', async () => {
    const clock = new SimulatedClock();
    const server = greeter().use('tools/call', rateLimit({ capacity: 2, refillPerSecond: 1, clock }));
    const client = await connect(server, 'legacy');
    const call = () => client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await call();
    await call();
    const refused = await call().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(JsonRpcError);
    expect(refused).toMatchObject({ code: RATE_LIMITED_ERROR_CODE, data: { retryAfterMs: 1000 } });
    expect(RATE_LIMITED_ERROR_CODE).toBeGreaterThanOrEqual(-32099);
    expect(RATE_LIMITED_ERROR_CODE).toBeLessThanOrEqual(-32000);
    clock.advance(1000);
    await expect(call()).resolves.toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    // Another principal has its own bucket.
    const other = await connect(server, 'legacy');
    await expect(other.callTool({ name: 'echo', arguments: { text: 'x' } })).resolves.toBeDefined();
    await client.close();
    await other.close();
  });

  it('refuses impossible settings', () => {
    expect(() => rateLimit({ capacity: 0, refillPerSecond: 1 })).toThrow(/capacity/);
    expect(() => rateLimit({ capacity: 1, refillPerSecond: 0 })).toThrow(/refillPerSecond/);
  });
});

describe('auditLog', () => {
  it('reports each inbound request once with its principal, target, duration and outcome, without params', async () => {
    const clock = new SimulatedClock();
    const records: AuditRecord[] = [];
    const server = greeter().use(auditLog((record) => records.push(record), { clock }));
    server.registerTool('fail', {}, () => {
      throw new JsonRpcError(-32050, 'no luck');
    });
    const client = await connect(server, 'legacy');
    await client.callTool({ name: 'echo', arguments: { text: 'secret' } });
    await client.callTool({ name: 'fail' }).catch(() => undefined);
    const calls = records.filter((record) => record.method === 'tools/call');
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ direction: 'inbound', target: 'echo', outcome: 'ok', protocolVersion: '2025-11-25', durationMs: 0 });
    expect(calls[0]?.principal).toMatch(/^session:/);
    expect(calls[0]).not.toHaveProperty('params');
    expect(JSON.stringify(records)).not.toContain('secret');
    expect(calls[1]).toMatchObject({ target: 'fail', outcome: 'error', error: { code: -32050, message: 'no luck' } });
    await client.close();
  });
});
