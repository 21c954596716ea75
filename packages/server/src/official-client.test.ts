/**
 * Interop: the official TypeScript SDK's clients (1.x `Client` from `@modelcontextprotocol/sdk`
 * and 2.x `Client` from `@modelcontextprotocol/client`) against our server, in one process
 * through the in-memory bridge of `@statemcp/testing`.
 */
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { JSON_SCHEMA_2020_12, fixtureServer } from './test-fixture-server.js';

const clientInfo = { name: 'official-client', version: '1.0.0' };
const capabilities = { sampling: {}, elicitation: {} };

/** What both official clients offer, in the shape the tests use. */
interface OfficialClient {
  listTools(): Promise<{ tools: { name: string; inputSchema: unknown }[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
  listResources(): Promise<{ resources: { uri: string }[] }>;
  readResource(params: { uri: string }): Promise<unknown>;
  listPrompts(): Promise<{ prompts: { name: string }[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<unknown>;
  complete(params: unknown): Promise<unknown>;
  listResourceTemplates(): Promise<{ resourceTemplates: { uriTemplate: string }[] }>;
  subscribeResource(params: { uri: string }): Promise<unknown>;
  unsubscribeResource(params: { uri: string }): Promise<unknown>;
  setLoggingLevel(level: 'debug' | 'info' | 'warning' | 'error'): Promise<unknown>;
  ping(): Promise<unknown>;
  getServerVersion(): unknown;
  getInstructions(): string | undefined;
  close(): Promise<void>;
}

const samplingAnswer = { role: 'assistant' as const, model: 'official-model', content: { type: 'text' as const, text: 'This is a test response from the client' } };
const elicitAnswer = { action: 'accept' as const, content: { username: 'testuser', email: 'test@example.com' } };

async function v1(): Promise<OfficialClient> {
  const client = new ClientV1(clientInfo, { capabilities });
  client.setRequestHandler(CreateMessageRequestSchema, () => samplingAnswer);
  client.setRequestHandler(ElicitRequestSchema, () => elicitAnswer);
  const { ours, theirs } = createOfficialBridge();
  await fixtureServer().connect(ours);
  await client.connect(theirs);
  return client;
}

async function v2(): Promise<OfficialClient> {
  const client = new ClientV2(clientInfo, { capabilities });
  client.setRequestHandler('sampling/createMessage', () => samplingAnswer);
  client.setRequestHandler('elicitation/create', () => elicitAnswer);
  const { ours, theirs } = createOfficialBridge();
  await fixtureServer().connect(ours);
  await client.connect(theirs);
  return client;
}

describe.each([
  ['@modelcontextprotocol/sdk 1.x', v1],
  ['@modelcontextprotocol/client 2.x', v2],
])('McpServer with the official %s client', (_label, connect) => {
  it('completes the handshake and sees serverInfo and instructions', async () => {
    const client = await connect();
    expect(client.getServerVersion()).toMatchObject({ name: 'statemcp-fixture', version: '1.0.0' });
    expect(client.getInstructions()).toBe('A fixture server.');
    await client.close();
  });

  it('lists and calls tools', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('add');
    await expect(client.callTool({ name: 'test_simple_text' })).resolves.toMatchObject({ content: [{ type: 'text', text: 'This is a simple text response for testing.' }] });
    await expect(client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).resolves.toMatchObject({ structuredContent: { sum: 3 } });
    await expect(client.callTool({ name: 'test_error_handling' })).resolves.toMatchObject({ isError: true });
    await expect(client.callTool({ name: 'test_image_content' })).resolves.toMatchObject({ content: [{ type: 'image', mimeType: 'image/png' }] });
    await client.close();
  });

  it('serves the conformance content fixtures', async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    const raw = tools.find((tool) => tool.name === 'json_schema_2020_12_tool');
    expect(raw?.inputSchema).toEqual(JSON_SCHEMA_2020_12);
    await expect(client.callTool({ name: 'test_audio_content' })).resolves.toMatchObject({ content: [{ type: 'audio', mimeType: 'audio/wav' }] });
    await expect(client.callTool({ name: 'test_embedded_resource' })).resolves.toMatchObject({
      content: [{ type: 'resource', resource: { uri: 'test://embedded-resource', text: 'This is an embedded resource content.' } }],
    });
    await expect(client.callTool({ name: 'test_tool_with_logging' })).resolves.toMatchObject({ content: [{ text: 'logged' }] });
    await expect(client.callTool({ name: 'test_elicitation_sep1034_defaults' })).resolves.toMatchObject({ content: [{ text: expect.stringContaining('action=accept') }] });
    await expect(client.callTool({ name: 'test_elicitation_sep1330_enums' })).resolves.toMatchObject({ content: [{ text: 'Elicitation completed: action=accept' }] });
    await client.close();
  });

  it('reads resources, including through a template', async () => {
    const client = await connect();
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('test://static-text');
    await expect(client.readResource({ uri: 'test://static-text' })).resolves.toMatchObject({ contents: [{ text: 'This is the content of the static text resource.' }] });
    const read = (await client.readResource({ uri: 'test://template/123/data' })) as { contents: { text: string }[] };
    expect(read.contents[0]?.text).toContain('123');
    await client.close();
  });

  it('lists templates, subscribes, sets the log level and pings', async () => {
    const client = await connect();
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['test://template/{id}/data']);
    await expect(client.subscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    await expect(client.unsubscribeResource({ uri: 'test://watched-resource' })).resolves.toEqual({});
    await expect(client.setLoggingLevel('info')).resolves.toEqual({});
    await expect(client.ping()).resolves.toEqual({});
    await client.close();
  });

  it('gets prompts and completes their arguments', async () => {
    const client = await connect();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['test_simple_prompt', 'test_prompt_with_arguments']);
    await expect(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } })).resolves.toMatchObject({
      messages: [{ content: { text: "Prompt with arguments: arg1='a', arg2='b'" } }],
    });
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } })).resolves.toEqual({
      completion: { values: ['testValue1', 'testValue2'] },
    });
    await client.close();
  });

  it('answers our sampling and elicitation requests', async () => {
    const client = await connect();
    await expect(client.callTool({ name: 'test_sampling', arguments: { prompt: 'Test prompt for sampling' } })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'LLM response: This is a test response from the client' }],
    });
    const elicited = (await client.callTool({ name: 'test_elicitation', arguments: { message: 'Please provide your information' } })) as { content: { text: string }[] };
    expect(elicited.content[0]?.text).toContain('testuser');
    await client.close();
  });
});
