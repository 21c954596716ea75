/**
 * The Lambda doors end to end: a local emulator turns real HTTP requests into the events of
 * each integration (Function URL streaming and buffered, HTTP API, REST API) and invokes the
 * handler, which serves `McpServer` through `handleFetch`. statemcp's client and the official
 * SDK's client run against each.
 */
import { Client as OfficialClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as OfficialTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client } from '@statemcp/client';
import { McpServer } from '@statemcp/server';
import { emulatedAwsLambda, startLambdaEmulator, type LambdaEmulator, type LambdaIntegration } from '@statemcp/testing';
import { afterEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from '../client/streamable-http.js';
import { InMemoryEventStore } from '../server/event-store.js';
import type { StreamableHttpServerOptions } from '../server/server-options.js';
import { createStreamableHttpServer } from '../server/streamable-http-server.js';
import { createLambdaHandler, createStreamingLambdaHandler } from './lambda-handler.js';

const DOMAIN = 'abc123.lambda-url.eu-west-1.on.aws';
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function buildServer(): McpServer {
  const server = new McpServer({ name: 'lambda-fixture', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Returns its text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
    async ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
  );
  server.registerTool(
    'count',
    { description: 'Counts to n with a progress step each', inputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    async ({ n }, extra) => {
      for (let step = 1; step <= Number(n); step += 1) await extra.sendProgress(step, Number(n));
      return { content: [{ type: 'text', text: `counted to ${String(n)}` }] };
    },
  );
  return server;
}

async function emulate(integration: LambdaIntegration, options: Partial<StreamableHttpServerOptions>, base64Bodies = false): Promise<{ url: URL; emulator: LambdaEmulator; server: McpServer }> {
  const server = buildServer();
  const mcp = createStreamableHttpServer({ path: '/mcp', allowedHosts: [DOMAIN], connect: (transport) => server.connect(transport), ...options });
  const handler = integration === 'function-url-streaming' ? createStreamingLambdaHandler(mcp, { awslambda: emulatedAwsLambda }) : createLambdaHandler(mcp);
  const emulator = await startLambdaEmulator({ integration, handler, base64Bodies, domainName: DOMAIN });
  cleanups.push(() => mcp.close(), () => emulator.close());
  return { url: new URL('/mcp', emulator.url), emulator, server };
}

function text(result: { content?: unknown }): string {
  return (result.content as { text?: string }[]).map((block) => block.text ?? '').join('');
}

/** tools/list, a call, and a call with progress: statemcp's client, then the official one. */
async function exerciseBothClients(url: URL): Promise<void> {
  const client = new Client({ name: 'statemcp-lambda', version: '0.0.0' });
  cleanups.push(() => client.terminate());
  await client.connect(new StreamableHttpClientTransport(url));
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'count']);
  expect(text(await client.callTool({ name: 'echo', arguments: { text: 'über λ' } }))).toBe('über λ');
  const progress: number[] = [];
  expect(text(await client.callTool({ name: 'count', arguments: { n: 3 } }, { onProgress: (update) => progress.push(update.progress) }))).toBe('counted to 3');
  expect(progress).toEqual([1, 2, 3]);
  await client.close();

  const official = new OfficialClient({ name: 'official-lambda', version: '1.0.0' });
  cleanups.push(() => official.close());
  await official.connect(new OfficialTransport(url));
  expect((await official.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'count']);
  const officialProgress: number[] = [];
  const counted = await official.callTool({ name: 'count', arguments: { n: 2 } }, undefined, { onprogress: (update) => officialProgress.push(update.progress) });
  expect(text(counted as { content?: unknown })).toBe('counted to 2');
  expect(officialProgress).toEqual([1, 2]);
}

/** The body of an event-stream answer as text. */
function eventText(response: Response): ReadableStream<string> {
  if (response.body === null) throw new Error('an event stream without a body');
  return response.body.pipeThrough(new TextDecoderStream());
}

const initializeBody = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const postHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('buffered integrations', () => {
  for (const [integration, base64] of [
    ['rest-api', false],
    ['http-api', false],
    ['function-url', true],
  ] as const) {
    it(`${integration}${base64 ? ' (base64 bodies)' : ''}: a stateless server, its SSE answers buffered whole, for both clients`, async () => {
      const { url, emulator } = await emulate(integration, { stateless: true }, base64);
      await exerciseBothClients(url);
      expect(emulator.invocations).toBeGreaterThan(6);
    });
  }

  it('answers JSON with enableJsonResponse, cookies and repeated headers intact', async () => {
    const { url } = await emulate('rest-api', { stateless: true, enableJsonResponse: true });
    const response = await fetch(url, { method: 'POST', headers: postHeaders, body: initializeBody });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toMatchObject({ id: 1, result: { serverInfo: { name: 'lambda-fixture' } } });
  });

  it('refuses a GET event stream with 405 and says why, without opening a stream', async () => {
    const { url } = await emulate('http-api', {});
    const init = await fetch(url, { method: 'POST', headers: postHeaders, body: initializeBody });
    const sessionId = init.headers.get('mcp-session-id') ?? '';
    await init.text();
    const response = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' } });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, DELETE');
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/buffered AWS Lambda integration.*RESPONSE_STREAM/);
  });

  it('is refused by the Host check unless allowedHosts names the integration domain', async () => {
    const server = buildServer();
    const mcp = createStreamableHttpServer({ path: '/mcp', stateless: true, connect: (transport) => server.connect(transport) });
    const emulator = await startLambdaEmulator({ integration: 'function-url', handler: createLambdaHandler(mcp), domainName: DOMAIN });
    cleanups.push(() => mcp.close(), () => emulator.close());
    const response = await fetch(new URL('/mcp', emulator.url), { method: 'POST', headers: postHeaders, body: initializeBody });
    expect(response.status).toBe(403);
  });
});

describe('the streaming integration (Function URL, RESPONSE_STREAM)', () => {
  it('serves a stateful server with SSE answers to both clients', async () => {
    const { url } = await emulate('function-url-streaming', { eventStore: new InMemoryEventStore() });
    await exerciseBothClients(url);
  });

  it('streams a GET stream as events happen, and resumes it with Last-Event-ID on a new invocation', async () => {
    const { url, server, emulator } = await emulate('function-url-streaming', { eventStore: new InMemoryEventStore() });
    // A raw session: the standalone GET stream is ours to open (a client transport opens its own).
    const init = await fetch(url, { method: 'POST', headers: postHeaders, body: initializeBody });
    await init.text();
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id') ?? '', 'mcp-protocol-version': '2025-11-25' };
    const initialized = await fetch(url, { method: 'POST', headers: { ...postHeaders, ...session }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    expect(initialized.status).toBe(202);
    const headers = { accept: 'text/event-stream', ...session };
    const abort = new AbortController();
    const stream = await fetch(url, { headers, signal: abort.signal });
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = eventText(stream).getReader();
    server.registerTool('later', { description: 'added while the stream is open' }, async () => ({ content: [] }));
    let seen = '';
    while (!/list_changed[^]*\n\n/.test(seen)) seen += (await reader.read()).value ?? '';
    const event = seen.split('\n\n').find((block) => block.includes('list_changed')) ?? '';
    const lastEventId = /^id: ?(.+)$/m.exec(event)?.[1];
    expect(lastEventId).toBeDefined();
    abort.abort();
    await reader.cancel().catch(() => undefined);
    // While nobody listens, another change: kept in the event store.
    server.registerTool('later-still', { description: 'added while no stream is open' }, async () => ({ content: [] }));
    const before = emulator.invocations;
    const resumed = await fetch(url, { headers: { ...headers, 'last-event-id': lastEventId ?? '' } });
    expect(resumed.status).toBe(200);
    expect(emulator.invocations).toBe(before + 1);
    const resumedReader = eventText(resumed).getReader();
    let replayed = '';
    while (!replayed.includes('list_changed')) replayed += (await resumedReader.read()).value ?? '';
    expect(replayed).toContain('notifications/tools/list_changed');
    await resumedReader.cancel();
  });

  it('throws a clear error when there is no awslambda runtime to stream through', () => {
    const mcp = createStreamableHttpServer({ connect: () => undefined });
    cleanups.push(() => mcp.close());
    expect(() => createStreamingLambdaHandler(mcp)).toThrow(/awslambda.*createLambdaHandler/);
  });
});
