/** Client adapter for the raw JSON-RPC floor: in-process, over a child's stdio, over node:http or fetch. */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { RawClient, RawLineSplitter, RawServer } from '../servers/raw.js';
import { BIG_TOOL, ECHO_TOOL, SLEEP_TOOL, STATS_TOOL } from '../spec.js';
import { childEnv, childNodeArgs, expectText, parseStats, textLength, waitForExit, type BenchClient, type InMemoryPair, type ServerOptions, type StdioConnection } from './types.js';

function wrap(client: RawClient, close: () => Promise<void>): BenchClient {
  const call = (name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<unknown> =>
    client.request('tools/call', { name, arguments: args }, timeoutMs);
  return {
    echo: async (text) => expectText(await call(ECHO_TOOL, { text }), text),
    big: async (bytes) => textLength(await call(BIG_TOOL, { bytes })),
    listTools: async () => ((await client.request('tools/list', {})) as { tools: unknown[] }).tools.length,
    sleepUntilTimeout: (timeoutMs) => call(SLEEP_TOOL, {}, timeoutMs).then(() => false, () => true),
    stats: async () => parseStats(await call(STATS_TOOL, {})),
    cancelsSent: () => client.cancelsSent,
    close,
  };
}

export async function inMemory(options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair> {
  const server = new RawServer(options);
  const client: RawClient = new RawClient((message) => {
    queueMicrotask(() => server.handle(message, (response) => queueMicrotask(() => client.onMessage(response))));
  });
  const started = performance.now();
  await client.initialize();
  if (timing !== undefined) timing.ms = performance.now() - started;
  const close = async () => client.failAll(new Error('closed'));
  return { client: wrap(client, close), close };
}

export async function stdio(fixture: string, args: readonly string[]): Promise<StdioConnection> {
  const child = spawn(process.execPath, [...childNodeArgs(), fixture, ...args], { stdio: ['pipe', 'pipe', 'inherit'], env: childEnv() });
  const pid = child.pid ?? -1;
  const client: RawClient = new RawClient((message) => {
    child.stdin.write(`${JSON.stringify(message)}\n`);
  });
  const splitter = new RawLineSplitter((line) => {
    if (line.length > 0) client.onMessage(JSON.parse(line));
  });
  child.stdout.on('data', (chunk: Buffer) => splitter.push(chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.on('exit', () => client.failAll(new Error('child exited')));
  await client.initialize();
  // Event-driven, as the MCP clients' own close is: the child's 'exit' (reaped), not a 1 ms poll of
  // its pid, which used to add ≈1.2 ms to the floor's shutdown (tooling/bench/profiling/README.md,
  // "s22-shutdown"). The poll stays as the bound for a child that never exits.
  const close = async () => {
    child.stdin.end();
    await Promise.race([exited, waitForExit(pid)]);
  };
  return { client: wrap(client, close), pid };
}

/** POSTs with node:http on a keep-alive agent (one per client). */
export async function http(url: string): Promise<BenchClient> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  let sessionId: string | undefined;
  const client: RawClient = new RawClient((message) => {
    const body = JSON.stringify(message);
    const headers: Record<string, string | number> = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (res) => {
      const header = res.headers['mcp-session-id'];
      if (typeof header === 'string') sessionId = header;
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        if (res.statusCode === 200) client.onMessage(JSON.parse(Buffer.concat(parts).toString('utf8')));
      });
    });
    req.on('error', (error) => client.failAll(error));
    req.end(body);
  });
  await client.initialize();
  return wrap(client, async () => agent.destroy());
}

/** The same raw client, POSTing with the global `fetch` (undici), as the SDK HTTP clients do. */
export async function httpFetch(url: string): Promise<BenchClient> {
  let sessionId: string | undefined;
  const client: RawClient = new RawClient((message) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId;
    fetch(url, { method: 'POST', headers, body: JSON.stringify(message) })
      .then(async (res) => {
        const header = res.headers.get('mcp-session-id');
        if (header !== null) sessionId = header;
        const text = await res.text();
        if (res.status === 200) client.onMessage(JSON.parse(text));
      })
      .catch((error: unknown) => client.failAll(error instanceof Error ? error : new Error(String(error))));
  });
  await client.initialize();
  return wrap(client, async () => undefined);
}

/** 2026-07-28 in-process: no handshake, the per-request `_meta` on every request, nothing validated. */
export async function inMemoryModern(options: ServerOptions): Promise<InMemoryPair> {
  const server = new RawServer(options);
  const client: RawClient = new RawClient((message) => {
    queueMicrotask(() => server.handle(message, (response) => queueMicrotask(() => client.onMessage(response))));
  });
  client.modern();
  const close = async () => client.failAll(new Error('closed'));
  return { client: wrap(client, close), close };
}

/** The headers of a 2026-07-28 stateless POST: version, method and tool name for routing. */
function modernHeaders(message: { method?: unknown; params?: { name?: unknown } }): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': String(message.method),
  };
  if (typeof message.params?.name === 'string') headers['mcp-name'] = message.params.name;
  return headers;
}

/** 2026-07-28 stateless HTTP on node:http: no session, `_meta` and the routing headers on every POST. */
export function httpModern(url: string): Promise<BenchClient> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const target = new URL(url);
  const client: RawClient = new RawClient((message) => {
    const body = JSON.stringify(message);
    const headers = { ...modernHeaders(message), 'content-length': Buffer.byteLength(body) };
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () => {
        if (res.statusCode === 200) client.onMessage(JSON.parse(Buffer.concat(parts).toString('utf8')));
      });
    });
    req.on('error', (error) => client.failAll(error));
    req.end(body);
  });
  client.modern();
  return Promise.resolve(wrap(client, async () => agent.destroy()));
}

/** {@link httpModern} POSTing with the global `fetch` (undici). */
export function httpModernFetch(url: string): Promise<BenchClient> {
  const client: RawClient = new RawClient((message) => {
    fetch(url, { method: 'POST', headers: modernHeaders(message), body: JSON.stringify(message) })
      .then(async (res) => {
        const text = await res.text();
        if (res.status === 200) client.onMessage(JSON.parse(text));
      })
      .catch((error: unknown) => client.failAll(error instanceof Error ? error : new Error(String(error))));
  });
  client.modern();
  return Promise.resolve(wrap(client, async () => undefined));
}
