/** Client adapter for statemcp (`@statemcp/client` with the statemcp transports). */
import { Client, type CallToolResult } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { InMemoryTransport, type Transport } from '@statemcp/protocol';
import { McpTelemetry } from '@statemcp/opentelemetry';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { createStatemcpServer } from '../servers/statemcp.js';
import { BIG_TOOL, ECHO_TOOL, SLEEP_TOOL, STATS_TOOL } from '../spec.js';
import { childNodeArgs, countCancels, expectText, parseStats, textLength, type BenchClient, type InMemoryPair, type ServerOptions, type StdioConnection } from './types.js';

const INFO = { name: 'bench-client', version: '1.0.0' };

function wrap(client: Client, cancels: () => number): BenchClient {
  const call = (name: string, args: Record<string, unknown>, timeoutMs?: number): Promise<CallToolResult> =>
    client.callTool({ name, arguments: args }, timeoutMs === undefined ? {} : { timeoutMs });
  return {
    echo: async (text) => expectText(await call(ECHO_TOOL, { text }), text),
    big: async (bytes) => textLength(await call(BIG_TOOL, { bytes })),
    listTools: async () => (await client.listTools()).tools.length,
    sleepUntilTimeout: (timeoutMs) => call(SLEEP_TOOL, {}, timeoutMs).then(() => false, () => true),
    stats: async () => parseStats(await call(STATS_TOOL, {})),
    cancelsSent: cancels,
    close: () => client.close(),
  };
}

async function connect(transport: Transport, era?: 'modern', setup?: (client: Client) => void): Promise<BenchClient> {
  const cancels = countCancels(transport);
  // Every other option at its default; the era pinned so a row compares one protocol across stacks (the
  // default 'auto' would take the 2026-07-28 era against our own servers, the handshake against the official ones).
  const client = new Client(INFO, { era: era ?? 'legacy' });
  setup?.(client);
  await client.connect(transport);
  return wrap(client, cancels);
}

/** One server for every in-memory connection (a statemcp McpServer serves many). */
const shared = new Map<boolean, ReturnType<typeof createStatemcpServer>>();

export async function inMemory(options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair> {
  const many = options.manyTools === true;
  let entry = shared.get(many);
  if (entry === undefined) {
    entry = createStatemcpServer({ manyTools: many });
    shared.set(many, entry);
  }
  const { server } = entry;
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const started = performance.now();
  const connection = await server.connect(serverSide);
  const client = await connect(clientSide);
  if (timing !== undefined) timing.ms = performance.now() - started;
  return {
    client,
    close: async () => {
      await client.close();
      await connection.close();
    },
  };
}

/** `traced`: the client runs `@statemcp/opentelemetry` (no SDK registered), as the `--otel` fixture does. */
export async function stdio(fixture: string, args: readonly string[], traced = false): Promise<StdioConnection> {
  let pid = -1;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...childNodeArgs(), fixture, ...args],
    stderr: 'inherit',
    onDiagnostic: (event) => {
      if (event.type === 'spawned') pid = event.pid;
    },
  });
  const client = await connect(transport, undefined, traced ? (c) => c.use(new McpTelemetry({ side: 'client' }).middleware) : undefined);
  return { client, pid };
}

/** The transport's default `fetch`: `nodeHttpFetch` (node:http with keep-alive) on Node. */
export function http(url: string): Promise<BenchClient> {
  return connect(new StreamableHttpClientTransport(url));
}

/** The same client on the global `fetch` (undici), the client stack of the official SDKs. */
export function httpGlobalFetch(url: string): Promise<BenchClient> {
  return connect(new StreamableHttpClientTransport(url, { fetch: globalThis.fetch }));
}

/** 2026-07-28 in-process: discovery instead of the handshake, the per-request `_meta` validated on every call. */
export async function inMemoryModern(options: ServerOptions): Promise<InMemoryPair> {
  const many = options.manyTools === true;
  let entry = shared.get(many);
  if (entry === undefined) {
    entry = createStatemcpServer({ manyTools: many });
    shared.set(many, entry);
  }
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const connection = await entry.server.connect(serverSide);
  const client = await connect(clientSide, 'modern');
  return {
    client,
    close: async () => {
      await client.close();
      await connection.close();
    },
  };
}

/** The server of {@link inMemoryTraced}: the bench server with `@statemcp/opentelemetry` as its middleware. */
let traced: ReturnType<typeof createStatemcpServer> | undefined;

/**
 * `inMemory` with `@statemcp/opentelemetry` on both sides and no OpenTelemetry SDK registered:
 * OpenTelemetry on, nothing exported (spans are started non-recording, attributes computed).
 */
export async function inMemoryTraced(): Promise<InMemoryPair> {
  if (traced === undefined) {
    traced = createStatemcpServer({});
    traced.server.use(new McpTelemetry({ side: 'server' }).middleware);
  }
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  const connection = await traced.server.connect(serverSide);
  const client = await connect(clientSide, undefined, (c) => c.use(new McpTelemetry({ side: 'client' }).middleware));
  return {
    client,
    close: async () => {
      await client.close();
      await connection.close();
    },
  };
}

/** 2026-07-28 stateless Streamable HTTP: no session, every POST stands alone (default `fetch`). */
export function httpModern(url: string): Promise<BenchClient> {
  return connect(new StreamableHttpClientTransport(url), 'modern');
}

/** {@link httpModern} on the global `fetch`. */
export function httpModernGlobalFetch(url: string): Promise<BenchClient> {
  return connect(new StreamableHttpClientTransport(url, { fetch: globalThis.fetch }), 'modern');
}
