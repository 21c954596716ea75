/** One statemcp client session that uses everything the greeter offers, as lines of text. */
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

/** Lists, calls, logs, prompts and reads against the greeter at `url`. */
export async function exerciseGreeter(url: URL): Promise<string[]> {
  const lines: string[] = [];
  const client = new Client({ name: 'greeter-client', version: '1.0.0' }, { era: 'legacy' });
  client.onLoggingMessage((message) => lines.push(`log ${message.level}: ${String(message.data)}`));
  await client.connect(new StreamableHttpClientTransport(url, { standaloneStream: false }));

  lines.push(`tools: ${(await client.listAllTools()).map((tool) => tool.name).join(', ')}`);
  const text = (result: { content: Array<{ type: string }> }): string => {
    const block = result.content[0];
    return block !== undefined && 'text' in block ? String(block.text) : '?';
  };
  lines.push(`greet: ${text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))}`);
  lines.push(`multi-greet: ${text(await client.callTool({ name: 'multi-greet', arguments: { name: 'Ada' } }))}`);
  const prompt = await client.getPrompt({ name: 'greeting-template', arguments: { name: 'Ada' } });
  lines.push(`prompt: ${prompt.messages.map((message) => text({ content: [message.content] })).join(' ')}`);
  const resource = await client.readResource({ uri: 'greetings://default' });
  lines.push(`resource: ${resource.contents.map((contents) => ('text' in contents ? contents.text : '')).join('')}`);

  await client.close();
  return lines;
}
