/**
 * Interop: our client against the official TypeScript SDK's servers (1.x `McpServer` from
 * `@modelcontextprotocol/sdk` and 2.x `McpServer` from `@modelcontextprotocol/server`),
 * wired in one process through the in-memory bridge of `@statemcp/testing`.
 */
import { McpServer as McpServerV1 } from '@modelcontextprotocol/sdk/server/mcp.js';
import { McpServer as McpServerV2 } from '@modelcontextprotocol/server';
import { LEGACY_PROTOCOL_VERSIONS } from '@statemcp/protocol';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Client } from './client.js';

const serverInfo = { name: 'official-server', version: '1.0.0' };

const defaultsSchema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string' as const, default: 'John Doe' },
    age: { type: 'integer' as const, default: 30 },
    score: { type: 'number' as const, default: 95.5 },
    status: { type: 'string' as const, enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean' as const, default: true },
  },
};

type Text = { type: 'text'; text: string };
const text = (value: string): { content: Text[] } => ({ content: [{ type: 'text', text: value }] });

/** The same fixture on both official servers; `connect` hands the official side of the bridge to it. */
interface OfficialServer {
  readonly connect: (transport: never) => Promise<void>;
}

function officialV1(): OfficialServer {
  const mcp = new McpServerV1(serverInfo, { instructions: 'official v1' });
  mcp.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
  );
  mcp.registerTool('ask-model', { description: 'Asks the client model', inputSchema: { prompt: z.string() } }, async ({ prompt }) => {
    const reply = await mcp.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return text(`LLM response: ${(reply.content as Text).text}`);
  });
  mcp.registerTool('ask-user', { description: 'Asks the user' }, async () => {
    const answer = await mcp.server.elicitInput({ message: 'Defaults?', requestedSchema: defaultsSchema });
    return text(JSON.stringify(answer));
  });
  mcp.registerResource('greeting', 'test://greeting', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Hello!' }] }));
  mcp.registerPrompt('greet', { description: 'Greets', argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
  }));
  return { connect: (transport) => mcp.connect(transport) };
}

function officialV2(): OfficialServer {
  const mcp = new McpServerV2(serverInfo, { instructions: 'official v2' });
  mcp.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }), outputSchema: z.object({ sum: z.number() }) },
    ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
  );
  mcp.registerTool('ask-model', { description: 'Asks the client model', inputSchema: z.object({ prompt: z.string() }) }, async ({ prompt }) => {
    const reply = await mcp.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    return text(`LLM response: ${(reply.content as Text).text}`);
  });
  mcp.registerTool('ask-user', { description: 'Asks the user' }, async () => {
    const answer = await mcp.server.elicitInput({ message: 'Defaults?', requestedSchema: defaultsSchema });
    return text(JSON.stringify(answer));
  });
  mcp.registerResource('greeting', 'test://greeting', { mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Hello!' }] }));
  mcp.registerPrompt('greet', { description: 'Greets', argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({
    messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }],
  }));
  return { connect: (transport) => mcp.connect(transport) };
}

async function connectTo(server: OfficialServer, protocolVersion?: string): Promise<Client> {
  const { ours, theirs } = createOfficialBridge();
  await server.connect(theirs as never);
  const client = new Client({ name: 'statemcp-interop', version: '1.0.0' }, protocolVersion !== undefined ? { protocolVersion } : {});
  client.onSampling((params) => ({
    role: 'assistant',
    content: { type: 'text', text: `echo: ${(params.messages[0]?.content as Text).text}` },
    model: 'test-model',
  }));
  client.onElicitation(() => ({ action: 'accept', content: {} }));
  await client.connect(ours);
  return client;
}

describe.each([
  ['@modelcontextprotocol/sdk 1.x', officialV1, 'official v1'],
  ['@modelcontextprotocol/server 2.x', officialV2, 'official v2'],
])('Client against the official %s McpServer', (_label, create, instructions) => {
  describe('#connect', () => {
    it('negotiates 2025-11-25 and reads the server info', async () => {
      const client = await connectTo(create());
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(client.serverInfo?.name).toBe('official-server');
      expect(client.instructions).toBe(instructions);
      expect(client.serverCapabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      await client.close();
    });

    it.each(LEGACY_PROTOCOL_VERSIONS)('speaks %s when it proposes it, and calls a tool', async (version) => {
      const client = await connectTo(create(), version);
      expect(client.protocolVersion).toBe(version);
      await client.listTools();
      await expect(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).resolves.toMatchObject({ content: [{ type: 'text', text: '3' }] });
      await client.close();
    });
  });

  describe('#callTool', () => {
    it('lists tools and calls one, checking its structured output', async () => {
      const client = await connectTo(create());
      const names: string[] = [];
      for await (const tool of client.tools()) names.push(tool.name);
      expect(names).toEqual(['add', 'ask-model', 'ask-user']);
      await expect(client.callTool({ name: 'add', arguments: { a: 5, b: 3 } })).resolves.toMatchObject({ structuredContent: { sum: 8 } });
      await client.close();
    });

    it('reports bad arguments as a tool error result', async () => {
      const client = await connectTo(create());
      const result = await client.callTool({ name: 'add', arguments: { a: 'five', b: 3 } });
      expect(result.isError).toBe(true);
      await client.close();
    });

    it('answers the sampling request the tool makes', async () => {
      const client = await connectTo(create());
      const result = await client.callTool({ name: 'ask-model', arguments: { prompt: 'Test prompt for sampling' } });
      expect(result.content).toEqual([{ type: 'text', text: 'LLM response: echo: Test prompt for sampling' }]);
      await client.close();
    });

    it('answers the elicitation the tool makes, with schema defaults applied', async () => {
      const client = await connectTo(create());
      const result = await client.callTool({ name: 'ask-user' });
      const answer = JSON.parse((result.content[0] as Text).text) as unknown;
      expect(answer).toMatchObject({ action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
      await client.close();
    });
  });

  describe('#readResource', () => {
    it('lists and reads a resource', async () => {
      const client = await connectTo(create());
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(['test://greeting']);
      await expect(client.readResource({ uri: 'test://greeting' })).resolves.toMatchObject({ contents: [{ uri: 'test://greeting', text: 'Hello!' }] });
      await client.close();
    });
  });

  describe('#getPrompt', () => {
    it('lists prompts and gets one with arguments', async () => {
      const client = await connectTo(create());
      const prompts: string[] = [];
      for await (const prompt of client.prompts()) prompts.push(prompt.name);
      expect(prompts).toEqual(['greet']);
      const prompt = await client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }]);
      await client.close();
    });
  });

  describe('#close', () => {
    it('terminates both sides', async () => {
      const client = await connectTo(create());
      await client.close();
      await expect(client.closed).resolves.toMatchObject({ reason: 'closed' });
    });
  });
});
