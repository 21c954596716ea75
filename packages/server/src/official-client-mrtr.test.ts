/**
 * Interop: the official TypeScript SDK 2.x client (`@modelcontextprotocol/client`), pinned to the
 * 2026-07-28 era, runs Multi Round-Trip Requests against our server: it answers each
 * `InputRequiredResult` through its ordinary `elicitation/create` / `sampling/createMessage`
 * handlers and retries with `inputResponses` and the sealed `requestState`.
 */
import { Client } from '@modelcontextprotocol/client';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { McpServer } from './index.js';

function server(): McpServer {
  const mcp = new McpServer({ name: 'mrtr-interop', version: '1.0.0' });
  mcp.registerTool('greet', {}, async (_args, extra) => {
    const name = await extra.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }, { inputKey: 'user_name' });
    const color = await extra.elicit({ message: 'Color?', requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] } });
    const sampled = await extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'Greet' } }], maxTokens: 10 });
    const greeting = Array.isArray(sampled.content) ? '' : sampled.content.type === 'text' ? sampled.content.text : '';
    return { content: [{ type: 'text', text: `${greeting} ${String(name.content?.name)}, you like ${String(color.content?.color)} (${extra.protocolVersion})` }] };
  });
  return mcp;
}

describe('interop with the official SDK 2.x client in the 2026-07-28 era', () => {
  it('fulfils three rounds of input requests through its ordinary handlers', async () => {
    const client = new Client({ name: 'official-v2', version: '2.0.0' }, { capabilities: { elicitation: {}, sampling: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
    const asked: string[] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      const message = (request.params as { message: string }).message;
      asked.push(message);
      return { action: 'accept', content: message === 'Name?' ? { name: 'Ada' } : { color: 'teal' } };
    });
    client.setRequestHandler('sampling/createMessage', () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: 'Hello' } }));
    const { ours, theirs } = createOfficialBridge();
    await server().connect(ours);
    await client.connect(theirs);
    const result = await client.callTool({ name: 'greet', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello Ada, you like teal (2026-07-28)' }]);
    expect(asked).toEqual(['Name?', 'Color?']);
    await client.close();
  });
});
