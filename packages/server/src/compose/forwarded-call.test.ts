/**
 * What a call forwarded through a composition carries both ways: the upstream's Multi Round-Trip
 * input requests (keys kept, one round per upstream round), the caller's capabilities and log
 * level, and the upstream's log messages during the call.
 */
import { Client } from '@statemcp/client';
import { InMemoryTransport, LOG_LEVEL_META_KEY, type LoggingMessageNotificationParams } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { McpServer } from '../mcp-server.js';
import { compose } from './index.js';

function text(value: string) {
  return { content: [{ type: 'text' as const, text: value }] };
}

/** An upstream whose tools ask for input, read the caller's capabilities, and log. */
function askingServer(): McpServer {
  const server = new McpServer({ name: 'asking', version: '1.0.0' });
  server.registerTool('ask_all', {}, async (_args, extra) => {
    const [name, sampled, roots] = await Promise.all([
      extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, { inputKey: 'user_name' }),
      extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 }, { inputKey: 'greeting' }),
      extra.listRoots({ inputKey: 'workspace' }),
    ]);
    return text(JSON.stringify({ name: name.content?.name, sampled: sampled.content, roots: roots.roots.length }));
  });
  server.registerTool('capabilities', {}, (_args, extra) => text(Object.keys(extra.clientCapabilities).sort().join(',') || 'none'));
  server.registerTool('chatty', {}, async (_args, extra) => {
    await extra.log('info', 'working', 'job');
    await extra.log('debug', 'detail', 'job');
    return text('done');
  });
  return server;
}

async function gatewayOver(upstream: McpServer) {
  const gateway = new McpServer({ name: 'gateway', version: '1.0.0' });
  const composition = compose(gateway);
  await composition.mount('up', upstream);
  return { gateway, composition };
}

async function downstream(gateway: McpServer, era: 'legacy' | 'modern', configure: (client: Client) => void = () => {}): Promise<Client> {
  const client = new Client({ name: 'downstream', version: '1.0.0' }, { era });
  configure(client);
  const [clientSide, serverSide] = InMemoryTransport.createPair();
  await gateway.connect(serverSide);
  await client.connect(clientSide);
  return client;
}

describe('a forwarded call', () => {
  it("reaches a 2026-07-28 caller as the upstream's rounds: its input keys kept, several inputs in one round", async () => {
    const { gateway, composition } = await gatewayOver(askingServer());
    let attempts = 0;
    gateway.use('tools/call', (context, next) => {
      if (context.direction === 'inbound') attempts += 1;
      return next();
    });
    const keys: (string | undefined)[] = [];
    const client = await downstream(gateway, 'modern', (c) => {
      c.onElicitation((_params, context) => {
        keys.push(context.inputKey);
        return { action: 'accept', content: { name: 'Ada' } };
      });
      c.onSampling((_params, context) => {
        keys.push(context.inputKey);
        return { role: 'assistant', model: 'test', content: { type: 'text', text: 'hello' } };
      });
      c.setRoots([{ uri: 'file:///work' }]);
    });
    const result = await client.callTool({ name: 'up_ask_all' });
    expect(JSON.parse(String((result.content[0] as { text: string }).text))).toEqual({ name: 'Ada', sampled: { type: 'text', text: 'hello' }, roots: 1 });
    expect(keys.sort()).toEqual(['greeting', 'user_name']);
    expect(attempts).toBe(2); // one round with the three inputs, then the retry that completes
    await client.close();
    await composition.close();
  });

  it.each(['legacy', 'modern'] as const)("states the %s caller's capabilities upstream, not the gateway's", async (era) => {
    const { gateway, composition } = await gatewayOver(askingServer());
    const bare = await downstream(gateway, era);
    await expect(bare.callTool({ name: 'up_capabilities' })).resolves.toMatchObject({ content: [{ text: 'none' }] });
    const eliciting = await downstream(gateway, era, (c) => c.onElicitation(() => ({ action: 'decline' })));
    await expect(eliciting.callTool({ name: 'up_capabilities' })).resolves.toMatchObject({ content: [{ text: 'elicitation' }] });
    await bare.close();
    await eliciting.close();
    await composition.close();
  });

  it.each([
    ['legacy', undefined, ['info', 'debug']],
    ['modern', 'info', ['info']],
  ] as const)("relays the upstream's log messages during the call to the %s caller, at its level", async (era, level, expected) => {
    const { gateway, composition } = await gatewayOver(askingServer());
    const logs: LoggingMessageNotificationParams[] = [];
    const client = await downstream(gateway, era, (c) => c.onLoggingMessage((message) => logs.push(message)));
    const result = await client.callTool({ name: 'up_chatty', ...(level === undefined ? {} : { _meta: { [LOG_LEVEL_META_KEY]: level } }) });
    expect(result).toMatchObject({ content: [{ text: 'done' }] });
    await expect.poll(() => logs.map((message) => message.level)).toEqual(expected);
    expect(logs[0]).toMatchObject({ data: 'working', logger: 'up/job' });
    await client.close();
    await composition.close();
  });
});
