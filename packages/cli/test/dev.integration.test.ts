/**
 * `statemcp dev` as a real process, with real clients over real stdio and Streamable HTTP:
 * sessions survive three edits of the entry (a tool added, changed, removed), every client
 * hears each tools/list_changed and sees the new list, a call in flight during a reload finishes
 * on the old code, a syntax error keeps the last good version serving, and stopping the process
 * leaves no child process and no listening port.
 */
import { watch, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as SdkHttpClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineReader, childPids, isAlive, isListening, makeProject, portOf, statemcpCommand, type FixtureProject } from './dev-harness.js';

/** What the test needs from either client. */
interface TestClient {
  readonly label: string;
  toolNames(): Promise<string[]>;
  description(tool: string): Promise<string | undefined>;
  /** The first text block of the tool's result. */
  call(tool: string, args: Record<string, unknown>): Promise<string>;
  /** How many tools/list_changed notifications arrived. */
  readonly listChanges: number;
  /** Resolves on the next tools/list_changed (take it before making the change). */
  nextListChange(): Promise<void>;
  /** Whether the connection is still the one opened at the start. */
  stillConnected(): boolean;
  close(): Promise<void>;
}

const firstText = (result: object): string => {
  const block = ((result as { content?: unknown }).content as { type: string; text?: string }[] | undefined)?.[0];
  return block?.type === 'text' ? (block.text ?? '') : '';
};

class ListChangeCounter {
  count = 0;
  #waiters: (() => void)[] = [];
  heard(): void {
    this.count++;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }
  next(): Promise<void> {
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}

async function statemcpClient(label: string, transport: StdioClientTransport | StreamableHttpClientTransport): Promise<TestClient> {
  const client = new Client({ name: `statemcp-${label}`, version: '1.0.0' });
  const changes = new ListChangeCounter();
  client.onToolsListChanged(() => changes.heard());
  await client.connect(transport);
  const session = client.session;
  let closed = false;
  void client.closed.then(() => (closed = true));
  return {
    label: `statemcp client over ${label}`,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    description: async (name) => (await client.listTools()).tools.find((tool) => tool.name === name)?.description,
    call: async (name, args) => firstText(await client.callTool({ name, arguments: args })),
    get listChanges() {
      return changes.count;
    },
    nextListChange: () => changes.next(),
    stillConnected: () => !closed && client.session === session && client.state.kind === 'operating',
    close: () => client.close(),
  };
}

async function sdkClient(label: string, transport: SdkStdioClientTransport | SdkHttpClientTransport): Promise<TestClient> {
  const client = new SdkClient({ name: `sdk-${label}`, version: '1.0.0' });
  const changes = new ListChangeCounter();
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.heard());
  let closed = false;
  client.onclose = () => (closed = true);
  await client.connect(transport);
  const sessionId = transport instanceof SdkHttpClientTransport ? transport.sessionId : undefined;
  return {
    label: `official SDK client over ${label}`,
    toolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
    description: async (name) => (await client.listTools()).tools.find((tool) => tool.name === name)?.description,
    call: async (name, args) => firstText(await client.callTool({ name, arguments: args })),
    get listChanges() {
      return changes.count;
    },
    nextListChange: () => changes.next(),
    stillConnected: () => !closed && (transport instanceof SdkHttpClientTransport ? transport.sessionId === sessionId && sessionId !== undefined : true),
    close: () => client.close(),
  };
}

/** Resolves once every file in `files` exists in `dir` (the tool handlers create them). */
function filesAppear(dir: string, files: readonly string[]): Promise<void> {
  return new Promise((resolve) => {
    const missing = new Set(files);
    const watcher = watch(dir, (_event, name) => {
      if (name !== null) missing.delete(name);
      if (missing.size === 0) {
        watcher.close();
        resolve();
      }
    });
  });
}

/** Makes a change to the project and waits until every client heard tools/list_changed. */
async function changeAndHear(clients: readonly TestClient[], change: () => void): Promise<void> {
  const heard = clients.map((client) => client.nextListChange());
  change();
  await Promise.all(heard);
}

/** The three edits, the in-flight call and the syntax error, checked on every client. */
async function exerciseReloads(project: FixtureProject, stderr: LineReader, clients: readonly TestClient[]): Promise<void> {
  for (const client of clients) expect(await client.toolNames(), client.label).toEqual(['greet', 'wait_for']);

  // Calls in flight: each handler (version 1) creates its `started` file, then waits for `release`.
  const release = join(project.signals, 'release');
  const startedNames = clients.map((_client, index) => `started-${index}`);
  const started = filesAppear(project.signals, startedNames);
  const inFlight = clients.map((client, index) => client.call('wait_for', { started: join(project.signals, startedNames[index] ?? ''), file: release }));
  await started;

  // Edit 1: a tool added.
  await changeAndHear(clients, () => project.writeVersion('v2-added'));
  for (const client of clients) expect(await client.toolNames(), client.label).toEqual(['greet', 'wait_for', 'add']);
  for (const client of clients) expect(await client.call('add', { a: 2, b: 3 }), client.label).toBe('5');

  // The calls made before the reload finish, on the code they started on.
  writeFileSync(release, '');
  expect(await Promise.all(inFlight)).toEqual(clients.map(() => 'released (v1)'));

  // Edit 2: a tool changed (its description and its answer).
  await changeAndHear(clients, () => project.writeVersion('v3-changed'));
  for (const client of clients) {
    expect(await client.description('greet'), client.label).toBe('Greets someone warmly (v3)');
    expect(await client.call('greet', { name: 'Ada' }), client.label).toBe('Hello and welcome, Ada! (v3)');
  }

  // A syntax error: the last good version keeps serving, the error is printed.
  const mark = stderr.lines.length;
  project.writeEntry('export default function register(server) {\n  server.registerTool(\n');
  await stderr.waitFor(/kept v3 serving/, mark);
  await stderr.waitFor(/server\.ts.*(?:Unexpected|Expected)/, mark);
  for (const client of clients) {
    expect(await client.call('greet', { name: 'Ada' }), client.label).toBe('Hello and welcome, Ada! (v3)');
    expect(await client.toolNames(), client.label).toEqual(['greet', 'wait_for', 'add']);
  }

  // Edit 3: a tool removed.
  await changeAndHear(clients, () => project.writeVersion('v4-removed'));
  for (const client of clients) {
    expect(await client.toolNames(), client.label).toEqual(['greet', 'wait_for']);
    expect(await client.call('greet', { name: 'Ada' }), client.label).toBe('Hello and welcome, Ada! (v4)');
    expect(client.listChanges, client.label).toBe(3);
    expect(client.stillConnected(), client.label).toBe(true);
  }
}

/** After the process is gone: no child left, no port listening. */
async function expectNothingLeft(pid: number, children: readonly number[], ports: readonly number[]): Promise<void> {
  await vi.waitFor(() => expect([pid, ...children].filter(isAlive)).toEqual([]), { timeout: 20_000, interval: 50 });
  for (const port of ports) expect(await isListening(port)).toBe(false);
}

const projects: FixtureProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe('statemcp dev', () => {
  it('keeps a statemcp client (stdio) and an official SDK client (HTTP) across three edits, then stops on SIGINT leaving nothing behind', async () => {
    const project = makeProject();
    projects.push(project);
    const { command, args } = await statemcpCommand(['dev', project.entry, '--stdio', '--http']);
    const stderr = new PassThrough();
    const reader = new LineReader(stderr);
    const stdioTransport = new StdioClientTransport({ command, args, cwd: project.dir, onStderr: (chunk) => stderr.write(chunk) });
    const stdioClient = await statemcpClient('stdio', stdioTransport);
    const http = await portOf(reader, /Streamable HTTP at/);
    const inspector = await portOf(reader, /inspector at/);
    const httpClient = await sdkClient('HTTP', new SdkHttpClientTransport(new URL(http.url)));

    await exerciseReloads(project, reader, [stdioClient, httpClient]);

    const pid = stdioTransport.pid ?? -1;
    const children = childPids(pid);
    await httpClient.close();
    process.kill(pid, 'SIGINT');
    await reader.waitFor(/statemcp dev: stopped/);
    await stdioClient.close();
    await expectNothingLeft(pid, children, [http.port, inspector.port]);
  });

  it('keeps an official SDK client (stdio) and a statemcp client (HTTP) across three edits, then stops when stdin ends leaving nothing behind', async () => {
    const project = makeProject();
    projects.push(project);
    const { command, args } = await statemcpCommand(['dev', project.entry, '--stdio', '--http']);
    const sdkTransport = new SdkStdioClientTransport({ command, args, cwd: project.dir, stderr: 'pipe' });
    const stderr = sdkTransport.stderr;
    if (stderr === null) throw new Error('the SDK transport gave no stderr stream');
    const reader = new LineReader(stderr as Readable);
    const stdioClient = await sdkClient('stdio', sdkTransport);
    const http = await portOf(reader, /Streamable HTTP at/);
    const inspector = await portOf(reader, /inspector at/);
    const httpClient = await statemcpClient('HTTP', new StreamableHttpClientTransport(http.url));

    await exerciseReloads(project, reader, [stdioClient, httpClient]);

    const pid = sdkTransport.pid ?? -1;
    const children = childPids(pid);
    await httpClient.close();
    const exited = new Promise<void>((resolve) => {
      const clientOnClose = sdkTransport.onclose;
      sdkTransport.onclose = () => {
        clientOnClose?.();
        resolve();
      };
    });
    await stdioClient.close(); // ends the dev process's stdin
    await exited;
    await expectNothingLeft(pid, children, [http.port, inspector.port]);
    expect(reader.lines).toContain('statemcp dev: stopped');
  });
});
