import { Client } from '@statemcp/client';
import { InMemoryTransport } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { createEverythingServer, DEFAULTS_SCHEMA, JSON_SCHEMA_2020_12 } from './fixtures.js';

const TOOLS = [
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_error_handling',
  'test_tool_with_progress',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'test_reconnection',
  'json_schema_2020_12_tool',
];

describe('createEverythingServer', () => {
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  async function connect(setup: (client: Client) => void = () => undefined): Promise<Client> {
    const server = createEverythingServer({ stepDelayMs: 1 });
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    // The handshake era's fixtures (logging notifications, resources/subscribe); the modern ones are below.
    client = new Client({ name: 'test', version: '1.0.0' }, { era: 'legacy' });
    setup(client);
    await client.connect(clientSide);
    return client;
  }

  it('declares the capabilities the conformance suite needs', async () => {
    const c = await connect();
    expect(c.serverCapabilities).toMatchObject({ tools: {}, resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} });
  });

  it('lists every fixture tool, the 2020-12 schema verbatim', async () => {
    const c = await connect();
    const { tools } = await c.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
    for (const tool of tools) expect(tool.description).toBeTruthy();
    expect(tools.find((tool) => tool.name === 'json_schema_2020_12_tool')?.inputSchema).toEqual(JSON_SCHEMA_2020_12);
  });

  it('returns each content type', async () => {
    const c = await connect();
    const text = await c.callTool({ name: 'test_simple_text', arguments: {} });
    expect(text.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    const audio = await c.callTool({ name: 'test_audio_content', arguments: {} });
    expect(audio.content[0]).toMatchObject({ type: 'audio', mimeType: 'audio/wav' });
    const audioBytes = Buffer.from((audio.content[0] as { data: string }).data, 'base64');
    expect(audioBytes.subarray(0, 4).toString('ascii')).toBe('RIFF');
    const mixed = await c.callTool({ name: 'test_multiple_content_types', arguments: {} });
    expect(mixed.content.map((block) => block.type)).toEqual(['text', 'image', 'resource']);
    const error = await c.callTool({ name: 'test_error_handling', arguments: {} });
    expect(error.isError).toBe(true);
  });

  it('logs and reports progress while a tool runs', async () => {
    const c = await connect();
    const messages: unknown[] = [];
    c.onLoggingMessage((message) => messages.push(message.data));
    const progress: number[] = [];
    await c.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await c.callTool({ name: 'test_tool_with_progress', arguments: {} }, { onProgress: (update) => progress.push(update.progress) });
    expect(messages).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    expect(progress).toEqual([0, 50, 100]);
  });

  it('asks the client to sample and to elicit', async () => {
    const c = await connect((client) => {
      client.onSampling((params) => ({
        role: 'assistant',
        model: 'test-model',
        content: { type: 'text', text: `echo: ${JSON.stringify(params.messages[0]?.content)}` },
      }));
      client.onElicitation(() => ({ action: 'accept', content: {} }));
    });
    const sampled = await c.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(JSON.stringify(sampled.content)).toContain('LLM response: echo:');
    const defaults = await c.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} });
    // The client fills in every default of the requested schema.
    const expected = Object.fromEntries(Object.entries(DEFAULTS_SCHEMA.properties).map(([key, schema]) => [key, (schema as { default: unknown }).default]));
    expect(defaults.content).toEqual([{ type: 'text', text: `Elicitation completed: action=accept, content=${JSON.stringify(expected)}` }]);
  });

  it('serves the resources, the template and the prompts', async () => {
    const c = await connect();
    const { resources } = await c.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(expect.arrayContaining(['test://static-text', 'test://static-binary', 'test://watched-resource']));
    const text = await c.readResource({ uri: 'test://static-text' });
    expect(text.contents[0]).toMatchObject({ mimeType: 'text/plain', text: 'This is the content of the static text resource.' });
    const templated = await c.readResource({ uri: 'test://template/123/data' });
    expect(JSON.parse((templated.contents[0] as { text: string }).text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
    await c.subscribeResource({ uri: 'test://watched-resource' });
    await c.unsubscribeResource({ uri: 'test://watched-resource' });
    const prompt = await c.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b' } });
    expect(prompt.messages[0]?.content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='a', arg2='b'" });
    const completion = await c.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } });
    expect(completion.completion.values).toEqual(['test', 'testValue1']);
  });

  it('changes its tool and prompt lists on demand, for listen streams (2026-07-28)', async () => {
    const server = createEverythingServer({ stepDelayMs: 1 });
    const [clientSide, serverSide] = InMemoryTransport.createPair();
    await server.connect(serverSide);
    client = new Client({ name: 'test', version: '1.0.0' }, { era: 'modern' });
    await client.connect(clientSide);
    const stream = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(stream.acknowledged).toEqual({ toolsListChanged: true, promptsListChanged: true });
    const methods: string[] = [];
    stream.onNotification(({ method }) => methods.push(method));
    await client.callTool({ name: 'test_trigger_tool_change', arguments: {} });
    await client.callTool({ name: 'test_trigger_prompt_change', arguments: {} });
    expect(methods).toEqual(['notifications/tools/list_changed', 'notifications/prompts/list_changed']);
    expect((await client.listTools()).tools.some((tool) => tool.name.endsWith('_temporary'))).toBe(false);
  });
});
