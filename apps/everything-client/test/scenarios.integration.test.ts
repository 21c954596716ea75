// The client scenarios against a statemcp server on 127.0.0.1 that offers what the suite's mock
// servers offer (add_numbers, test_client_elicitation_defaults, a stream-closing test_reconnection,
// the 2020-12 schema tool and its echo).
import { createStreamableHttpServer, InMemoryEventStore, type ListeningServer, type StreamableHttpSessionTransport } from '@statemcp/http-transport/server';
import { McpServer, type ServerConnection } from '@statemcp/server';
import { registerSkills } from '@statemcp/server/skills';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { run } from '../src/run.js';

const SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
  properties: { address: { $ref: '#/$defs/address' } },
  additionalProperties: false,
} as const;

describe('everything-client scenarios', () => {
  let listening: ListeningServer;
  const echoed: unknown[] = [];
  const elicited: unknown[] = [];

  beforeAll(async () => {
    const transports = new WeakMap<ServerConnection, StreamableHttpSessionTransport>();
    const server = new McpServer({ name: 'mock', version: '1.0.0' });
    server.registerTool('add_numbers', { description: 'adds', inputSchema: { a: z.number(), b: z.number() } }, ({ a, b }) => ({
      content: [{ type: 'text', text: String(a + b) }],
    }));
    server.registerTool('test_client_elicitation_defaults', { description: 'elicits' }, async (_args, extra) => {
      const result = await extra.elicit({
        mode: 'form',
        message: 'defaults?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'John Doe' }, age: { type: 'integer', default: 30 } } },
      });
      elicited.push(result.content);
      return { content: [{ type: 'text', text: JSON.stringify(result) }] };
    });
    server.registerTool('test_reconnection', { description: 'closes its stream' }, async (_args, extra) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      transports.get(extra.connection)?.closeRequestStream(extra.requestId);
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { content: [{ type: 'text', text: 'reconnected' }] };
    });
    server.registerTool('json_schema_2020_12_tool', { description: '2020-12', inputSchema: SCHEMA_2020_12 }, () => ({ content: [] }));
    server.registerTool('json_schema_echo', { description: 'echo', inputSchema: { type: 'object', properties: { schema: { type: 'object' } } } }, (args) => {
      echoed.push((args as { schema?: unknown }).schema);
      return { content: [{ type: 'text', text: 'ok' }] };
    });
    await registerSkills(server, { skills: [{ files: { 'SKILL.md': '---\nname: mock-skill\ndescription: A listed skill\n---\nBody\n' } }] });
    const mcp = createStreamableHttpServer({
      path: '/mcp',
      eventStore: new InMemoryEventStore(),
      retryIntervalMs: 50,
      connect: async (transport) => {
        transports.set(await server.connect(transport), transport);
      },
    });
    listening = await mcp.listen({ port: 0 });
  });

  afterAll(async () => {
    await listening.close();
  });

  async function scenario(name: string): Promise<{ code: number; log: string }> {
    const lines: string[] = [];
    const code = await run({ argv: ['--flag', listening.url.href], env: { MCP_CONFORMANCE_SCENARIO: name }, log: (line) => lines.push(line) });
    return { code, log: lines.join('\n') };
  }

  it.each(['initialize', 'tools_call', 'sse-retry', 'sep-2640-client-no-prefetch'])('runs %s to the end', async (name) => {
    const { code, log } = await scenario(name);
    expect(code, log).toBe(0);
  });

  it('fills in schema defaults for an empty accepted elicitation', async () => {
    const { code, log } = await scenario('elicitation-sep1034-client-defaults');
    expect(code, log).toBe(0);
    expect(elicited.at(-1)).toEqual({ name: 'John Doe', age: 30 });
  });

  it('passes a JSON Schema 2020-12 input schema back unchanged', async () => {
    const { code, log } = await scenario('json-schema-2020-12-preservation');
    expect(code, log).toBe(0);
    expect(echoed.at(-1)).toEqual(SCHEMA_2020_12);
  });
});
