import { CapabilityNotSupportedError, Client } from '@statemcp/client';
import { InMemoryTransport, Session } from '@statemcp/protocol';

/** Connects to a server, lists and calls tools, answers its sampling request, and closes. */
export async function main(log: (...parts: unknown[]) => void = console.log): Promise<void> {
  // A tiny in-process server, so that this example runs on its own. An application passes
  // the transport of a real server instead (@statemcp/stdio-transport, @statemcp/http-transport).
  const server = new Session({
    role: 'server',
    capabilities: () => ({ tools: {}, logging: {} }),
    onInitialize: (_params, version) => ({
      protocolVersion: version,
      capabilities: { tools: {}, logging: {} },
      serverInfo: { name: 'demo-server', version: '1.0.0' },
    }),
  });
  server.setRequestHandler('tools/list', () => ({
    tools: [
      {
        name: 'add',
        inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
        outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      },
      { name: 'haiku', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler('tools/call', async (params, context) => {
    if (params.name === 'add') {
      const { a, b } = params.arguments as { a: number; b: number };
      await context.sendProgress(1, 1, 'adding');
      return { content: [{ type: 'text', text: String(a + b) }], structuredContent: { sum: a + b } };
    }
    // The server asks the client's model (sampling) while it handles the call.
    const reply = await context.sendRequest('sampling/createMessage', {
      messages: [{ role: 'user', content: { type: 'text', text: 'Write a haiku' } }],
      maxTokens: 50,
    });
    return { content: [reply.content] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await server.connect(serverSide);

  // The client: handlers first (they declare capabilities), then connect.
  const client = new Client({ name: 'readme-example', version: '1.0.0' }, { defaultTimeoutMs: 10_000 });
  client.onSampling(() => ({
    role: 'assistant',
    content: { type: 'text', text: 'An old silent pond / a frog jumps in / splash! silence again' },
    model: 'stub-model',
  }));
  await client.connect(clientSide);
  log(`connected to ${client.serverInfo?.name} with protocol ${client.protocolVersion}`);

  for await (const tool of client.tools()) log(`tool: ${tool.name}`);

  const sum = await client.callTool(
    { name: 'add', arguments: { a: 2, b: 3 } },
    { timeoutMs: 5_000, onProgress: (update) => log(`progress: ${update.progress}/${update.total}`) },
  );
  log('sum:', sum.structuredContent); // checked against the tool's outputSchema

  const haiku = await client.callTool({ name: 'haiku' });
  log('haiku:', haiku.content[0]?.type === 'text' ? haiku.content[0].text : haiku.content);

  try {
    await client.listPrompts();
  } catch (error) {
    if (error instanceof CapabilityNotSupportedError) log('no prompts here:', error.message);
    else throw error;
  }

  await client.close();
  log(`state: ${client.state.kind}`);
}
