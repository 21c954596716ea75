/**
 * `@statemcp/client` and `@statemcp/server` over the stdio transports and real pipes, and
 * each of them against a peer this project did not write: `@modelcontextprotocol/server-everything`
 * driven by our client, and our server driven by the official SDK's stdio client.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as SdkStdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client, type CallToolResult } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';
import { isProcessAlive } from '../src/process-tree.js';
import { StdioClientTransport } from '../src/index.js';
import { node, sourceFixture } from './support/paths.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
const mcpServerArgs = [await sourceFixture('mcp-server.mjs')];

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.terminate()));
});

async function connect(transport: StdioClientTransport): Promise<Client> {
  // These tests measure the handshake era's throughput and crash reporting: pinned (era-negotiation.integration.test.ts covers 'auto').
  const client = new Client({ name: 'statemcp-stdio-e2e', version: '0.0.0' }, { era: 'legacy' });
  clients.push(client);
  await client.connect(transport);
  return client;
}

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

describe('Client and McpServer over stdio', () => {
  it('completes the handshake and 10 000 sequential and 10 000 concurrent tool calls', async () => {
    const transport = new StdioClientTransport({ command: node, args: mcpServerArgs, cwd: packageRoot });
    const client = await connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['crash', 'echo', 'hang']);
    for (let index = 0; index < 10_000; index += 1) {
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: `s${index}` } }))).toBe(`s${index}`);
    }
    const results = await Promise.all(
      Array.from({ length: 10_000 }, (_, index) => client.callTool({ name: 'echo', arguments: { text: `c${index}` } })),
    );
    expect(results.map(textOf)).toEqual(Array.from({ length: 10_000 }, (_, index) => `c${index}`));
    await client.close();
    expect(transport.status).toBe('closed');
    expect(await isProcessAlive(transport.pid ?? -1)).toBe(false);
  });

  it('carries a 10 MiB tool argument and result', async () => {
    const client = await connect(new StdioClientTransport({ command: node, args: mcpServerArgs, cwd: packageRoot }));
    const text = `${'ж'.repeat(1000)}${'k'.repeat(10 * 1024 * 1024)}`;
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text } }))).toBe(text);
    await client.close();
  });

  it('rejects pending calls at once with the exit details when the server crashes', async () => {
    const client = await connect(new StdioClientTransport({ command: node, args: mcpServerArgs, cwd: packageRoot }));
    const outcomes = await Promise.allSettled([
      client.callTool({ name: 'hang', arguments: {} }),
      client.callTool({ name: 'crash', arguments: {} }),
    ]);
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({
        status: 'rejected',
        reason: { code: 'CONNECTION_CLOSED', details: { exitCode: 3, signal: null } },
      });
      const details = (outcome as PromiseRejectedResult).reason as { details: { stderrTail: string } };
      expect(details.details.stderrTail).toContain('crashing on purpose');
    }
  });

  describe('interop', () => {
    it('our client drives @modelcontextprotocol/server-everything: initialize, tools/list, tools/call, clean shutdown', async () => {
      const entry = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');
      const transport = new StdioClientTransport({ command: node, args: [entry, 'stdio'], cwd: packageRoot });
      const client = await connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool({ name: 'echo', arguments: { message: 'hello from statemcp' } });
      expect(textOf(result)).toContain('hello from statemcp');
      await client.close();
      expect(transport.status).toBe('closed');
      expect(await isProcessAlive(transport.pid ?? -1)).toBe(false);
    });

    it('the official SDK stdio client drives our McpServer: initialize, tools/list, tools/call, clean shutdown', async () => {
      const sdkTransport = new SdkStdioClientTransport({ command: node, args: mcpServerArgs, cwd: packageRoot, stderr: 'pipe' });
      const sdkClient = new SdkClient({ name: 'official-sdk-client', version: '1.0.0' });
      await sdkClient.connect(sdkTransport);
      expect(sdkClient.getServerVersion()).toMatchObject({ name: 'statemcp-stdio-fixture' });
      const { tools } = await sdkClient.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['crash', 'echo', 'hang']);
      const result = await sdkClient.callTool({ name: 'echo', arguments: { text: 'hello from the official SDK' } });
      expect(result.content).toEqual([{ type: 'text', text: 'hello from the official SDK' }]);
      const pid = sdkTransport.pid ?? -1;
      const started = performance.now();
      await sdkClient.close();
      // The SDK only closes stdin and waits: our server must exit by itself, well before the SDK's SIGTERM.
      expect(performance.now() - started).toBeLessThan(1900);
      expect(await isProcessAlive(pid)).toBe(false);
    });
  });
});
