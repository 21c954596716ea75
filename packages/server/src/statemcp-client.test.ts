/**
 * End to end with this project's own `Client` (@statemcp/client) at every legacy revision,
 * over the in-memory transport.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, LEGACY_PROTOCOL_VERSIONS } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { flush } from './test-harness.js';
import { fixtureServer } from './test-fixture-server.js';

async function connect(version: string, configure: (client: Client) => void | Promise<void> = () => {}) {
  const server = fixtureServer();
  const client = new Client({ name: 'statemcp-client', version: '1.0.0' }, { protocolVersion: version });
  await configure(client);
  const [clientTransport, serverTransport] = InMemoryTransport.createPair();
  const connection = await server.connect(serverTransport);
  await client.connect(clientTransport);
  return { server, client, connection };
}

describe.each(LEGACY_PROTOCOL_VERSIONS)('McpServer with @statemcp/client at %s', (version) => {
  it('negotiates the version and lists everything', async () => {
    const { client } = await connect(version);
    expect(client.protocolVersion).toBe(version);
    expect(client.instructions).toBe('A fixture server.');
    expect(client.serverInfo?.title === undefined).toBe(version < '2025-06-18');
    const tools: string[] = [];
    for await (const tool of client.tools()) tools.push(tool.name);
    expect(tools).toContain('add');
    const resources: string[] = [];
    for await (const resource of client.resources()) resources.push(resource.uri);
    expect(resources).toEqual(['test://static-text', 'test://watched-resource']);
    const templates: string[] = [];
    for await (const template of client.resourceTemplates()) templates.push(template.uriTemplate);
    expect(templates).toEqual(['test://template/{id}/data']);
    const prompts: string[] = [];
    for await (const prompt of client.prompts()) prompts.push(prompt.name);
    expect(prompts).toEqual(['test_simple_prompt', 'test_prompt_with_arguments']);
    await client.close();
  });

  it('calls tools with progress, reads resources and gets prompts', async () => {
    const { client } = await connect(version);
    await client.listTools();
    await expect(client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).resolves.toMatchObject({ content: [{ text: '4' }] });
    const progress: number[] = [];
    await client.callTool({ name: 'test_tool_with_progress' }, { onProgress: (update) => progress.push(update.progress) });
    expect(progress).toEqual([0, 50, 100]);
    await expect(client.readResource({ uri: 'test://template/7/data' })).resolves.toMatchObject({ contents: [{ mimeType: 'application/json' }] });
    await expect(client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'x', arg2: 'y' } })).resolves.toMatchObject({
      messages: [{ content: { text: "Prompt with arguments: arg1='x', arg2='y'" } }],
    });
    await expect(client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'testValue' } })).resolves.toMatchObject({
      completion: { values: ['testValue1', 'testValue2'] },
    });
    await client.close();
  });

  it('delivers resource updates, list changes and log messages', async () => {
    const { client, server } = await connect(version);
    const updated: string[] = [];
    const messages: unknown[] = [];
    let listChanged = 0;
    client.onResourceUpdated((uri) => updated.push(uri));
    client.onLoggingMessage((message) => messages.push(message.data));
    client.onToolsListChanged(() => listChanged++);
    await client.subscribeResource({ uri: 'test://watched-resource' });
    await server.notifyResourceUpdated('test://watched-resource');
    server.registerTool('late', { inputSchema: { q: z.string() } }, ({ q }) => ({ content: [{ type: 'text', text: q }] }));
    await client.setLoggingLevel('warning');
    await server.sendLoggingMessage({ level: 'info', data: 'dropped' });
    await server.sendLoggingMessage({ level: 'error', data: 'kept' });
    await flush();
    expect(updated).toEqual(['test://watched-resource']);
    expect(listChanged).toBe(1);
    expect(messages).toEqual(['kept']);
    await client.close();
  });

  it('answers sampling through the client handler', async () => {
    const { client } = await connect(version, (c) =>
      c.onSampling(() => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'This is a test response from the client' } })),
    );
    await expect(client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } })).resolves.toMatchObject({
      content: [{ text: 'LLM response: This is a test response from the client' }],
    });
    await client.close();
  });

  it(version >= '2025-06-18' ? 'answers elicitation through the client handler' : 'refuses elicitation: the revision has none', async () => {
    const { client, connection } = await connect(version, (c) => c.onElicitation(() => ({ action: 'accept', content: { username: 'ada', email: 'a@b.c' } })));
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who?' } });
    if (version >= '2025-06-18') {
      expect(JSON.stringify(result.content)).toContain('ada');
    } else {
      expect(result.isError).toBe(true);
      await expect(connection.elicitInput({ message: 'x', requestedSchema: { type: 'object', properties: {} } })).rejects.toMatchObject({ code: 'CAPABILITY_NOT_SUPPORTED' });
    }
    await client.close();
  });

  it('lists the client roots', async () => {
    const { client, connection } = await connect(version, (c) => c.setRoots([{ uri: 'file:///work', name: 'work' }]));
    await expect(connection.listRoots()).resolves.toEqual({ roots: [{ uri: 'file:///work', name: 'work' }] });
    await client.close();
  });
});
