/**
 * The composition acceptance run, on real processes and sockets: a gateway (`compose`) mounting
 * a local statemcp server (`local`), the official `@modelcontextprotocol/server-everything`
 * over stdio (`everything`) and a statemcp server over Streamable HTTP on 127.0.0.1 (`remote`),
 * itself served over Streamable HTTP, driven by statemcp's client (both eras) and by the
 * official SDK's client.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as SdkHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, JsonRpcError } from '@statemcp/client';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { McpServer } from '@statemcp/server';
import { UPSTREAM_UNAVAILABLE_ERROR_CODE, compose, proxy, type Composition, type MountState } from '@statemcp/server/compose';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const require = createRequire(import.meta.url);
const everythingEntry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });
const textOf = (result: object) => JSON.stringify('content' in result ? result.content : result);

/** The local upstream: asks its caller for input from inside a call. */
function localServer(): McpServer {
  const server = new McpServer({ name: 'local', version: '1.0.0' });
  server.registerTool('ask', {}, async (_args, extra) => {
    const answer = await extra.elicit({ message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } });
    return text(`hello ${String(answer.content?.name)}`);
  });
  server.registerTool('roots', {}, async (_args, extra) => text(JSON.stringify((await extra.listRoots()).roots)));
  return server;
}

/** The HTTP upstream, with the cancellations it saw. */
function remoteServer(cancelled: (reason: string) => void): McpServer {
  const server = new McpServer({ name: 'remote', version: '1.0.0' });
  server.registerTool('echo', { inputSchema: { message: z.string() } }, ({ message }) => text(`echo ${message}`));
  server.registerTool('count', { inputSchema: { to: z.number() } }, async ({ to }, extra) => {
    for (let step = 1; step <= to; step += 1) await extra.sendProgress(step, to, `step ${step}`);
    return text(`counted to ${to}`);
  });
  server.registerTool('wait', { inputSchema: { label: z.string() } }, ({ label }, extra) =>
    new Promise((_resolve, reject) => {
      extra.signal.addEventListener('abort', () => {
        cancelled(label);
        reject(new Error('cancelled'));
      });
    }),
  );
  return server;
}

let composition: Composition;
let gatewayUrl: URL;
let everything: StdioClientTransport | undefined;
const states: MountState['kind'][] = [];
const cancellations = new Map<string, () => void>();
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const remote = remoteServer((label) => cancellations.get(label)?.());
  const remoteHttp = await createStreamableHttpServer({ connect: (transport) => remote.connect(transport) }).listen({ host: '127.0.0.1', port: 0 });
  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
  composition = compose(gateway, { onMountState: (prefix, state) => prefix === 'everything' && states.push(state.kind) });
  await composition.mount('local', localServer());
  await composition.mount(
    'everything',
    proxy(() => (everything = new StdioClientTransport({ command: process.execPath, args: [everythingEntry, 'stdio'], stderr: 'ignore' })), { reconnect: { initialDelayMs: 200 } }),
  );
  await composition.mount('remote', proxy(() => new StreamableHttpClientTransport(remoteHttp.url)));
  const served = await createStreamableHttpServer({ connect: (transport) => gateway.connect(transport) }).listen({ host: '127.0.0.1', port: 0 });
  gatewayUrl = served.url;
  closers.push(() => served.close(), () => composition.close(), () => gateway.close(), () => remoteHttp.close(), () => remote.close());
});

afterAll(async () => {
  for (const close of closers) await close();
});

async function statemcpClient(era: 'legacy' | 'modern'): Promise<Client> {
  const client = new Client({ name: `statemcp-${era}`, version: '1.0.0' }, { era, roots: [{ uri: 'file:///work', name: 'work' }] });
  client.onElicitation((params) => ({ action: 'accept', content: { name: `statemcp ${era} (${params.message.slice(0, 10)})` } }));
  client.onSampling(() => ({ role: 'assistant', model: 'stub-model', content: { type: 'text', text: `sampled by statemcp ${era}` } }));
  await client.connect(new StreamableHttpClientTransport(gatewayUrl));
  return client;
}

async function sdkClient(): Promise<SdkClient> {
  const client = new SdkClient({ name: 'official-sdk', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: {} } });
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'official sdk' } }));
  client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: 'assistant', model: 'stub-model', content: { type: 'text', text: 'sampled by the official sdk' } }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///sdk', name: 'sdk' }] }));
  await client.connect(new SdkHttpTransport(gatewayUrl));
  return client;
}

/** Resolves when the HTTP upstream saw the call labelled `label` cancelled. */
function cancellationOf(label: string): Promise<void> {
  return new Promise((resolve) => cancellations.set(label, resolve));
}

/** The conditional tools of server-everything appear after its handshake (list_changed); wait for them downstream. */
async function everythingTools(list: () => Promise<string[]>): Promise<string[]> {
  await expect.poll(list, { timeout: 20_000, interval: 100 }).toContain('everything_trigger-elicitation-request');
  return list();
}

describe('gateway over real processes and sockets', () => {
  describe.each(['legacy', 'modern'] as const)('driven by statemcp’s client (%s)', (era) => {
    it('lists the items of all three upstreams, namespaced', async () => {
      const client = await statemcpClient(era);
      expect(client.era).toBe(era);
      // both eras upstream too: the stdio upstream speaks a legacy revision, the HTTP one 2026-07-28
      expect(composition.mounts.get('everything')?.state).toMatchObject({ kind: 'ready', protocolVersion: expect.stringMatching(/^202[45]-/) });
      expect(composition.mounts.get('remote')?.state).toMatchObject({ kind: 'ready', protocolVersion: '2026-07-28' });
      const tools = await everythingTools(async () => (await client.listAllTools()).map((tool) => tool.name));
      expect(tools).toEqual(expect.arrayContaining(['local_ask', 'everything_echo', 'everything_trigger-long-running-operation', 'remote_echo', 'remote_wait']));
      const resources = (await client.listAllResources()).map((resource) => resource.uri);
      expect(resources.every((uri) => uri.startsWith('everything+'))).toBe(true);
      expect(resources.length).toBeGreaterThan(0);
      const [first] = resources;
      const read = await client.readResource({ uri: first ?? '' });
      expect(read.contents[0]?.uri).toBe(first);
      await client.close();
    });

    it('forwards progress both from a stdio and an HTTP upstream', async () => {
      const client = await statemcpClient(era);
      const remote: number[] = [];
      await expect(client.callTool({ name: 'remote_count', arguments: { to: 3 } }, { onProgress: ({ progress }) => remote.push(progress) })).resolves.toMatchObject(text('counted to 3'));
      expect(remote).toEqual([1, 2, 3]);
      const stdio: number[] = [];
      await everythingTools(async () => (await client.listAllTools()).map((tool) => tool.name));
      const result = await client.callTool({ name: 'everything_trigger-long-running-operation', arguments: { duration: 0.4, steps: 2 } }, { onProgress: ({ progress }) => stdio.push(progress) });
      expect(textOf(result)).toContain('Long running operation completed');
      expect(stdio).toEqual([1, 2]);
      await client.close();
    });

    it('cancels the upstream call when the downstream caller cancels', async () => {
      const client = await statemcpClient(era);
      const label = `statemcp-${era}`;
      const seen = cancellationOf(label);
      const controller = new AbortController();
      const call = client.callTool({ name: 'remote_wait', arguments: { label } }, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      await expect(call).rejects.toThrow();
      await seen; // the HTTP upstream's handler saw its signal abort
      await client.close();
    });

    it('forwards elicitation, sampling and roots requests of the upstreams to the calling client', async () => {
      const client = await statemcpClient(era);
      await everythingTools(async () => (await client.listAllTools()).map((tool) => tool.name));
      const elicited = await client.callTool({ name: 'everything_trigger-elicitation-request' });
      expect(textOf(elicited)).toContain(`statemcp ${era}`);
      const sampled = await client.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hi' } });
      expect(textOf(sampled)).toContain(`sampled by statemcp ${era}`);
      await expect(client.callTool({ name: 'local_ask' })).resolves.toMatchObject(text(`hello statemcp ${era} (Your name?)`));
      await expect(client.callTool({ name: 'local_roots' })).resolves.toMatchObject(text(JSON.stringify([{ uri: 'file:///work', name: 'work' }])));
      await client.close();
    });
  });

  describe('driven by the official SDK’s client', () => {
    it('lists, calls with progress and cancellation, and answers forwarded elicitation, sampling and roots', async () => {
      const client = await sdkClient();
      const tools = await everythingTools(async () => (await client.listTools()).tools.map((tool) => tool.name));
      expect(tools).toEqual(expect.arrayContaining(['local_ask', 'everything_echo', 'remote_count']));
      const progress: number[] = [];
      const counted = await client.callTool({ name: 'remote_count', arguments: { to: 2 } }, CallToolResultSchema, { onprogress: ({ progress: value }) => progress.push(value) });
      expect(textOf(counted)).toContain('counted to 2');
      expect(progress).toEqual([1, 2]);
      const seen = cancellationOf('sdk');
      const controller = new AbortController();
      const waiting = client.callTool({ name: 'remote_wait', arguments: { label: 'sdk' } }, CallToolResultSchema, { signal: controller.signal });
      setTimeout(() => controller.abort(), 200);
      await expect(waiting).rejects.toThrow();
      await seen;
      expect(textOf(await client.callTool({ name: 'everything_trigger-elicitation-request', arguments: {} }))).toContain('official sdk');
      expect(textOf(await client.callTool({ name: 'everything_trigger-sampling-request', arguments: { prompt: 'hi' } }))).toContain('sampled by the official sdk');
      // The roots question of the call's upstream reaches this caller. (server-everything's own
      // get-roots-list answers from roots it cached once per upstream session, which every
      // caller of the gateway shares: see the composition guide's Limits.)
      expect(textOf(await client.callTool({ name: 'local_roots', arguments: {} }))).toContain('file:///sdk');
      expect(textOf(await client.callTool({ name: 'local_ask', arguments: {} }))).toContain('hello official sdk');
      await client.close();
    });
  });

  describe('an upstream killed mid-call', () => {
    it('fails only its own in-flight call with the typed error, keeps the others serving, and comes back', async () => {
      const client = await statemcpClient('legacy');
      const sdk = await sdkClient();
      const changes: string[] = [];
      sdk.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes.push('tools'));
      await everythingTools(async () => (await client.listAllTools()).map((tool) => tool.name));
      const pid = everything?.pid;
      let started: () => void = () => {};
      const firstProgress = new Promise<void>((resolve) => (started = resolve));
      const doomed = client.callTool({ name: 'everything_trigger-long-running-operation', arguments: { duration: 30, steps: 60 } }, { onProgress: () => started() });
      const outcome = doomed.then(() => undefined, (error: unknown) => error);
      await firstProgress;
      process.kill(pid ?? -1, 'SIGKILL');
      const error = await outcome;
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(UPSTREAM_UNAVAILABLE_ERROR_CODE);
      expect((error as JsonRpcError).data).toEqual({ upstream: 'everything' });
      // the other upstreams are unaffected
      await expect(client.callTool({ name: 'remote_echo', arguments: { message: 'still here' } })).resolves.toMatchObject(text('echo still here'));
      // the lost upstream's items come back once it is reconnected, announced by list_changed
      const tools = await everythingTools(async () => (await client.listAllTools()).map((tool) => tool.name));
      expect(tools).toContain('everything_echo');
      expect(everything?.pid).not.toBe(pid);
      expect(states).toContain('reconnecting');
      // The tools are back as soon as they are mirrored; the mount is ready once prompts and resources are too.
      await expect.poll(() => states.at(-1)).toBe('ready');
      expect(changes.length).toBeGreaterThanOrEqual(2); // items removed, items back
      expect(textOf(await client.callTool({ name: 'everything_echo', arguments: { message: 'back' } }))).toContain('back');
      await sdk.close();
      await client.close();
    });
  });
});
