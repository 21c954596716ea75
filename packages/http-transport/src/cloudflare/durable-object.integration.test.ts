/**
 * `@statemcp/http-transport/cloudflare` under workerd (miniflare, Durable Objects on, no
 * compatibility flag): the Worker front of `test-worker.ts` and its object class, reached over
 * 127.0.0.1. Eviction is a restart of the runtime on the same storage (`@statemcp/testing/workerd`):
 * every object loses its memory, its storage stays.
 */
import { Client, type ListenNotification } from '@statemcp/client';
import { TASKS_EXTENSION_ID, withExtension, type JsonRpcMessage } from '@statemcp/protocol';
import { bundleWorker, WorkerRuntime } from '@statemcp/testing/workerd';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from '../client/streamable-http.js';
import { SseParser, readSseStream } from '../shared/sse-parse.js';

let script: string;
let runtime: WorkerRuntime;
let url: URL;

beforeAll(async () => {
  script = await bundleWorker(fileURLToPath(new URL('./test-worker.ts', import.meta.url)));
});
beforeEach(async () => {
  runtime = await WorkerRuntime.start(script, { durableObjects: { MCP_OBJECT: 'McpObject' } });
  url = new URL('/mcp', runtime.origin);
});
afterEach(async () => {
  await runtime.close();
});

const VERSION = '2025-11-25';

function textOf(result: { content: unknown }): string | undefined {
  const [first] = result.content as { text?: string }[];
  return first?.text;
}

function post(sessionId: string | undefined, message: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION };
  if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
  return fetch(url, { method: 'POST', headers, body: JSON.stringify(message) });
}

/** Opens a session by hand (initialize, initialized); resolves with its id. */
async function openSession(): Promise<string> {
  const opened = await post(undefined, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
  });
  expect(opened.status).toBe(200);
  await opened.text();
  const sessionId = opened.headers.get('mcp-session-id');
  if (sessionId === null) throw new Error('initialize answered without Mcp-Session-Id');
  const initialized = await post(sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' });
  expect(initialized.status).toBe(202);
  return sessionId;
}

interface Received {
  readonly id: string | undefined;
  readonly message: JsonRpcMessage;
}

/** Reads SSE events from `response` until `until` says enough (the rest of the body is cancelled) or the stream ends. */
async function readEvents(response: Response, until: (events: Received[]) => boolean): Promise<Received[]> {
  const events: Received[] = [];
  const parser = new SseParser({
    onEvent: (event) => {
      if (event.data !== '') events.push({ id: event.lastEventId, message: JSON.parse(event.data) as JsonRpcMessage });
    },
  });
  if (response.body === null) throw new Error('no body');
  await readSseStream(response.body, parser, undefined, () => until(events));
  return events;
}

const logged = (events: Received[], data: string): Received | undefined =>
  events.find((event) => 'method' in event.message && event.message.method === 'notifications/message' && (event.message.params as { data?: unknown }).data === data);
const answer = (events: Received[], id: number): JsonRpcMessage | undefined => events.find((event) => !('method' in event.message) && 'id' in event.message && event.message.id === id)?.message;

/** A tools/call of `wait_for_release` whose POST stream the client leaves after the "waiting" event; resolves with that event's id. */
async function leaveWaitingCall(sessionId: string, id: number): Promise<string> {
  const call = await post(sessionId, { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'wait_for_release', arguments: {} } });
  expect(call.headers.get('content-type')).toContain('text/event-stream');
  const events = await readEvents(call, (seen) => logged(seen, 'waiting') !== undefined);
  const waiting = logged(events, 'waiting')?.id;
  if (waiting === undefined) throw new Error('the waiting event carried no id');
  return waiting;
}

function resume(sessionId: string, lastEventId: string): Promise<Response> {
  return fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': VERSION, 'last-event-id': lastEventId } });
}

describe('Durable Objects under workerd (miniflare)', () => {
  it('keeps a legacy session across the eviction of its object', async () => {
    const client = new Client({ name: 'durable-object-test', version: '1.0.0' }, { era: 'legacy' });
    // Retries enough to outlast the restart: the standalone GET stream reconnects to the new incarnation.
    const transport = new StreamableHttpClientTransport(url, { reconnect: { maxRetries: 100 } });
    await client.connect(transport);
    const sessionId = transport.sessionId;
    expect(sessionId).toMatch(/^[0-9a-f]{64}\.[0-9a-f-]{36}$/);
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 40 } }))).toBe('42');

    await runtime.restart();
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } }))).toBe('3');
    expect(transport.sessionId).toBe(sessionId);
    expect(client.protocolVersion).toBe(VERSION);
    // The standalone stream carries on in the new incarnation: a change announced after a call was answered arrives on it.
    const changed = new Promise<void>((resolve) => client.onToolsListChanged(() => resolve()));
    expect(textOf(await client.callTool({ name: 'add_tool', arguments: { later: true } }))).toBe('added_1');
    await changed;
    expect(transport.standaloneStreamState?.kind).toBe('open');
    await client.close();
  });

  it('resumes a POST stream with Last-Event-ID on a new Worker request', async () => {
    const sessionId = await openSession();
    const waiting = await leaveWaitingCall(sessionId, 2);
    const released = await post(sessionId, { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'release', arguments: {} } });
    expect(answer(await readEvents(released, (events) => answer(events, 3) !== undefined), 3)).toMatchObject({ result: { content: [{ text: 'released' }] } });

    const resumed = await resume(sessionId, waiting);
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed, (seen) => answer(seen, 2) !== undefined);
    expect(logged(events, 'released')).toBeDefined();
    expect(logged(events, 'waiting')).toBeUndefined();
    expect(answer(events, 2)).toMatchObject({ result: { content: [{ type: 'text', text: 'done' }] } });
  });

  it('replays a stream the evicted object stored and ends the request it never answered', async () => {
    const sessionId = await openSession();
    const waiting = await leaveWaitingCall(sessionId, 2);

    await runtime.restart();
    const resumed = await resume(sessionId, waiting);
    expect(resumed.status).toBe(200);
    const events = await readEvents(resumed, (seen) => answer(seen, 2) !== undefined);
    expect(answer(events, 2)).toMatchObject({ error: { code: -32603 } });
    // The session itself lives on in the new incarnation.
    const ping = await post(sessionId, { jsonrpc: '2.0', id: 4, method: 'ping' });
    expect(answer(await readEvents(ping, (seen) => answer(seen, 4) !== undefined), 4)).toMatchObject({ result: {} });
  });

  it('answers 404 for a session id that names no object, and for a session deleted by its client', async () => {
    expect((await post('not-an-object.x', { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(404);
    const sessionId = await openSession();
    const deleted = await fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': VERSION } });
    expect(deleted.status).toBe(200);
    expect((await post(sessionId, { jsonrpc: '2.0', id: 2, method: 'ping' })).status).toBe(404);
  });

  it('serves 2026-07-28 listen streams and tasks from the shard object, tasks across its eviction', async () => {
    const client = new Client({ name: 'durable-object-test', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
    await client.connect(new StreamableHttpClientTransport(url));
    const stream = await client.listen({ toolsListChanged: true });
    const heard = new Promise<ListenNotification>((resolve) => {
      const remove = stream.onNotification((notification) => {
        remove();
        resolve(notification);
      });
    });
    expect(textOf(await client.callTool({ name: 'add_tool' }))).toBe('added_1');
    const notification = await heard;
    expect(notification.method).toBe('notifications/tools/list_changed');
    expect(notification.params._meta).toEqual({ 'io.modelcontextprotocol/subscriptionId': stream.id });

    let taskId: string | undefined;
    const report = await client.callTool({ name: 'report' }, { onTask: (task) => (taskId = task.taskId) });
    expect(textOf(report)).toBe('report ready');
    expect(taskId).toBeDefined();
    await stream.close();
    await client.close();

    await runtime.restart();
    const later = new Client({ name: 'durable-object-test', version: '1.0.0' }, { era: 'modern', capabilities: withExtension({}, TASKS_EXTENSION_ID) });
    await later.connect(new StreamableHttpClientTransport(url));
    const stored = await later.task(taskId ?? '').get();
    expect(stored).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'report ready' }] } });
    await later.close();
  });
});
