/** Client adapter for the official SDK 1.x (`@modelcontextprotocol/sdk`). */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { createSdk1Server } from '../servers/sdk1.js';
import { BIG_TOOL, ECHO_TOOL, SLEEP_TOOL, STATS_TOOL } from '../spec.js';
import { childNodeArgs, countCancels, expectText, parseStats, textLength, type BenchClient, type InMemoryPair, type ServerOptions, type StdioConnection } from './types.js';

const INFO = { name: 'bench-client', version: '1.0.0' };

function wrap(client: Client, cancels: () => number): BenchClient {
  const call = (name: string, args: Record<string, unknown>, timeoutMs?: number) =>
    client.callTool({ name, arguments: args }, undefined, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
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

async function connect(transport: Transport): Promise<BenchClient> {
  const cancels = countCancels(transport);
  const client = new Client(INFO);
  await client.connect(transport);
  return wrap(client, cancels);
}

export async function inMemory(options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair> {
  const server = createSdk1Server(options);
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
