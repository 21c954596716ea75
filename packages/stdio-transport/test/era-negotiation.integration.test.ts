/**
 * Era negotiation and interop over stdio with real child processes. Our `Client` (era `auto`
 * by default) meets the official SDK 1.x server (legacy: `server/discover` is -32601, then the
 * handshake) and our dual-era server (2026-07-28, even when the server starts long after the
 * client's `discoveryTimeoutMs`: a process answers or exits, so discovery waits). The official
 * SDK 2.x client speaks 2026-07-28 to the dual-era server (a cacheable list, an elicitation
 * round), and the 1.x client the legacy era to the same server.
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client, type CallToolResult } from '@statemcp/client';
import type { InspectEvent } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { StdioClientTransport } from '../src/index.js';
import { fixture, node, sourceFixture } from './support/paths.js';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const dualEraArgs = [await sourceFixture('dual-era-server.mjs')];
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

function textOf(result: CallToolResult): string {
  return result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function ourClient(options: ConstructorParameters<typeof Client>[1] = {}): Client {
  const client = new Client({ name: 'statemcp-era', version: '0.0.0' }, options);
  client.onElicitation(() => ({ action: 'accept', content: { name: 'Ada' } }));
  closers.push(() => client.terminate());
  return client;
}

describe('era negotiation over stdio', () => {
  it("'auto' meets the official SDK 1.x server: server/discover is refused (-32601), the handshake follows", async () => {
    const events: InspectEvent[] = [];
    const client = ourClient({ inspect: (event) => events.push(event) });
    await client.connect(new StdioClientTransport({ command: node, args: [fixture('official-v1-server.mjs')], cwd: packageRoot }));
    expect(client.era).toBe('legacy');
    expect(client.serverInfo?.name).toBe('official-v1-stdio');
    expect(textOf(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const inbound = events.flatMap((event) => (event.type === 'message.in' ? [event.message] : []));
    expect(inbound[0]).toMatchObject({ error: { code: -32601 } });
    await client.close();
  });

  it("'auto' meets the dual-era server in 2026-07-28, and waits for a server that starts after discoveryTimeoutMs", async () => {
    const client = ourClient({ discoveryTimeoutMs: 20 });
    // 25 × discoveryTimeoutMs, on top of the process start: its timer fires first however slow the machine.
    const env = { ...process.env, STARTUP_DELAY_MS: '500' };
    await client.connect(new StdioClientTransport({ command: node, args: dualEraArgs, cwd: packageRoot, env }));
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(textOf(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello Ada (2026-07-28)');
    await client.close();
  });
});

describe('the official SDK clients against one dual-era server over stdio', () => {
  it('v2 in 2026-07-28: a cacheable list, and a call with an elicitation round', async () => {
    const client = new ClientV2({ name: 'official-v2', version: '2.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return { action: 'accept', content: { name: 'Ada' } };
    });
    closers.push(() => client.close());
    await client.connect(new StdioV2({ command: node, args: dualEraArgs, cwd: packageRoot, stderr: 'pipe' }));
    const listed = await client.listTools();
    expect(listed.tools.map((tool) => tool.name)).toEqual(['greet']);
    expect(listed).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    const greeted = await client.callTool({ name: 'greet', arguments: {} });
    expect(greeted.content).toEqual([{ type: 'text', text: 'Hello Ada (2026-07-28)' }]);
    expect(asked).toEqual(['Name?']);
  });

  it('v1 in the legacy era: the handshake, the elicitation as a server-to-client request', async () => {
    const client = new ClientV1({ name: 'official-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Grace' } }));
    closers.push(() => client.close());
    await client.connect(new StdioV1({ command: node, args: dualEraArgs, cwd: packageRoot, stderr: 'pipe' }));
    expect(client.getServerVersion()).toMatchObject({ name: 'dual-era-stdio' });
    const greeted = await client.callTool({ name: 'greet', arguments: {} });
    const text = (greeted.content as { type: string; text: string }[])[0]?.text;
    expect(text).toMatch(/^Hello Grace \(2025-\d\d-\d\d\)$/);
  });
});
