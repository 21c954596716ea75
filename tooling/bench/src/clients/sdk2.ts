/** Client adapter for the official SDK 2.x (`@modelcontextprotocol/client`). */
import { Client, InMemoryTransport, StreamableHTTPClientTransport, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createSdk2Server } from '../servers/sdk2.js';
import { BIG_TOOL, ECHO_TOOL, SLEEP_TOOL, STATS_TOOL } from '../spec.js';
import { childNodeArgs, countCancels, expectText, parseStats, textLength, type BenchClient, type InMemoryPair, type ServerOptions, type StdioConnection } from './types.js';

const INFO = { name: 'bench-client', version: '1.0.0' };

function wrap(client: Client, cancels: () => number): BenchClient {
  const call = (name: string, args: Record<string, unknown>, timeoutMs?: number) =>
    client.callTool({ name, arguments: args }, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
  return {
    echo: async (text) => expectText(await call(ECHO_TOOL, { text }), text),
    big: async (bytes) => textLength(await call(BIG_TOOL, { bytes })),
    // 'refresh': always a round trip (2.x would otherwise serve its response cache).
    listTools: async () => (await client.listTools(undefined, { cacheMode: 'refresh' })).tools.length,
    sleepUntilTimeout: (timeoutMs) => call(SLEEP_TOOL, {}, timeoutMs).then(() => false, () => true),
    stats: async () => parseStats(await call(STATS_TOOL, {})),
    cancelsSent: cancels,
    close: () => client.close(),
  };
}

async function connect(transport: Transport): Promise<BenchClient> {
  const cancels = countCancels(transport);
  const client = new Client(INFO);
  await client.connect(transport);
  return wrap(client, cancels);
}

export async function inMemory(options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair> {
  const server = createSdk2Server(options);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const started = performance.now();
  await server.connect(serverSide);
  const client = await connect(clientSide);
  if (timing !== undefined) timing.ms = performance.now() - started;
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

export async function stdio(fixture: string, args: readonly string[]): Promise<StdioConnection> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...childNodeArgs(), fixture, ...args], stderr: 'inherit' });
  const client = await connect(transport);
  return { client, pid: transport.pid ?? -1 };
}

export function http(url: string): Promise<BenchClient> {
  return connect(new StreamableHTTPClientTransport(new URL(url)));
}
