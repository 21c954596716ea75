import { CapabilityNotSupportedError, InvalidStateError, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpServer } from './mcp-server.js';
import { connectClient, flush, initializedClient } from './test-harness.js';

const INFO = { name: 'asking-server', version: '1.0.0' };

const SAMPLE = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'Test prompt for sampling' } }], maxTokens: 100 };
const FORM = {
  message: 'Please provide your information',
  requestedSchema: { type: 'object' as const, properties: { username: { type: 'string' as const }, email: { type: 'string' as const } }, required: ['username', 'email'] },
};

const clientHandlers = {
  'sampling/createMessage': (params: JsonObject) => ({
    role: 'assistant',
    model: 'test-model',
    content: { type: 'text', text: `This is a test response to ${JSON.stringify((params.messages as JsonObject[]).length)} message(s)` },
  }),
  'elicitation/create': (params: JsonObject) =>
    params.mode === 'url' ? { action: 'accept' } : { action: 'accept', content: { username: 'testuser', email: 'test@example.com' } },
  'roots/list': () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }),
};

/** A server whose tools ask the client for things (the conformance fixtures' shape). */
function askingServer() {
  const server = new McpServer(INFO);
  server.registerTool('test_sampling', { inputSchema: { prompt: z.string() } }, async ({ prompt }, extra) => {
    const reply = await extra.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: prompt } }], maxTokens: 100 });
    const content = Array.isArray(reply.content) ? reply.content[0] : reply.content;
    return { content: [{ type: 'text', text: `LLM response: ${content?.type === 'text' ? content.text : ''}` }] };
  });
  server.registerTool('test_elicitation', { inputSchema: { message: z.string() } }, async ({ message }, extra) => {
    const answer = await extra.elicit({ ...FORM, message });
    return { content: [{ type: 'text', text: `User response: ${JSON.stringify(answer)}` }] };
  });
  server.registerTool('test_roots', {}, async (_args, extra) => {
    const { roots } = await extra.listRoots();
    return { content: [{ type: 'text', text: roots.map((root) => root.uri).join(',') }] };
  });
  return server;
}

describe('ServerConnection', () => {
  describe('#createMessage', () => {
    it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('samples through the client from inside a tool at %s', async (version) => {
      const test = await initializedClient(askingServer(), { version, capabilities: { sampling: {} }, handlers: clientHandlers });
      const result = await test.client.request('tools/call', { name: 'test_sampling', arguments: { prompt: 'Test prompt for sampling' } });
      expect(result.content).toEqual([{ type: 'text', text: 'LLM response: This is a test response to 1 message(s)' }]);
      const [request] = test.requests('sampling/createMessage');
      expect(request?.params).toEqual(SAMPLE);
    });

    it('refuses locally when the client did not declare sampling', async () => {
      const test = await initializedClient(askingServer(), { capabilities: {}, handlers: clientHandlers });
      await expect(test.connection.createMessage(SAMPLE)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      const result = await test.client.request('tools/call', { name: 'test_sampling', arguments: { prompt: 'x' } });
      expect(result).toMatchObject({ isError: true });
      expect(test.requests('sampling/createMessage')).toHaveLength(0);
    });

    it('sends tools only at 2025-11-25 to a client that declared sampling.tools', async () => {
      const withTools = { ...SAMPLE, tools: [{ name: 'lookup', inputSchema: { type: 'object' as const } }], toolChoice: { mode: 'auto' as const } };
      const capable = await initializedClient(askingServer(), { capabilities: { sampling: { tools: {} } }, handlers: clientHandlers });
      await expect(capable.connection.createMessage(withTools)).resolves.toMatchObject({ model: 'test-model' });
      expect(capable.requests('sampling/createMessage')[0]?.params).toMatchObject({ tools: [{ name: 'lookup' }] });

      const plain = await initializedClient(askingServer(), { capabilities: { sampling: {} }, handlers: clientHandlers });
      await expect(plain.connection.createMessage(withTools)).rejects.toMatchObject({ capability: 'sampling.tools' });

      const old = await initializedClient(askingServer(), { version: '2025-06-18', capabilities: { sampling: { tools: {} } }, handlers: clientHandlers });
      await expect(old.connection.createMessage(withTools)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      expect(old.requests('sampling/createMessage')).toHaveLength(0);
    });

    it('refuses before the handshake completes', async () => {
      const test = await connectClient(askingServer(), { capabilities: { sampling: {} } });
      await expect(test.connection.createMessage(SAMPLE)).rejects.toBeInstanceOf(InvalidStateError);
    });

    it('refuses after the InitializeResult but before notifications/initialized', async () => {
      const test = await connectClient(askingServer(), { capabilities: { sampling: {} } });
      test.clientTransport.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'raw', version: '1' } } });
      await flush();
      expect(test.connection.state.kind).toBe('initialized');
      await expect(test.connection.createMessage(SAMPLE)).rejects.toBeInstanceOf(InvalidStateError);
      await expect(test.connection.ping()).resolves.toBeTypeOf('number');
    });
  });

  describe('#elicitInput', () => {
    it.each(['2025-06-18', '2025-11-25'])('elicits a form from inside a tool at %s', async (version) => {
      const test = await initializedClient(askingServer(), { version, capabilities: { elicitation: {} }, handlers: clientHandlers });
      const result = await test.client.request('tools/call', { name: 'test_elicitation', arguments: { message: 'Please provide your information' } });
      expect(JSON.stringify(result.content)).toContain('testuser');
      expect(test.requests('elicitation/create')[0]?.params).toEqual(FORM);
    });

    it.each(['2024-11-05', '2025-03-26'])('refuses elicitation locally at %s, which has no elicitation', async (version) => {
      const test = await initializedClient(askingServer(), { version, capabilities: { elicitation: {} }, handlers: clientHandlers });
      await expect(test.connection.elicitInput(FORM)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    });

    it('refuses locally when the client did not declare elicitation', async () => {
      const test = await initializedClient(askingServer(), { capabilities: { sampling: {} }, handlers: clientHandlers });
      await expect(test.connection.elicitInput(FORM)).rejects.toMatchObject({ capability: 'elicitation' });
    });

    it('sends URL mode only to a 2025-11-25 client that declared elicitation.url', async () => {
      const url = { mode: 'url' as const, message: 'Sign in', url: 'https://example.com/login', elicitationId: 'e-1' };
      const capable = await initializedClient(askingServer(), { capabilities: { elicitation: { url: {} } }, handlers: clientHandlers });
      await expect(capable.connection.elicitInput(url)).resolves.toEqual({ action: 'accept' });
      const formOnly = await initializedClient(askingServer(), { capabilities: { elicitation: {} }, handlers: clientHandlers });
      await expect(formOnly.connection.elicitInput(url)).rejects.toMatchObject({ capability: 'elicitation.url' });
      expect(formOnly.requests('elicitation/create')).toHaveLength(0);
      const urlOnly = capable;
      await expect(urlOnly.connection.elicitInput(FORM)).rejects.toMatchObject({ capability: 'elicitation.form' });
      const old = await initializedClient(askingServer(), { version: '2025-06-18', capabilities: { elicitation: {} }, handlers: clientHandlers });
      await expect(old.connection.elicitInput(url)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    });

    it('sends notifications/elicitation/complete at 2025-11-25 only', async () => {
      const current = await initializedClient(askingServer(), { capabilities: { elicitation: { url: {} } }, handlers: clientHandlers });
      await current.connection.notifyElicitationComplete('e-1');
      await flush();
      expect(current.notifications('notifications/elicitation/complete').map((m) => m.params)).toEqual([{ elicitationId: 'e-1' }]);
      const old = await initializedClient(askingServer(), { version: '2025-06-18', capabilities: { elicitation: {} }, handlers: clientHandlers });
      await expect(old.connection.notifyElicitationComplete('e-1')).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    });

    it('drops mode: "form" at 2025-06-18, which has no mode field', async () => {
      const test = await initializedClient(askingServer(), { version: '2025-06-18', capabilities: { elicitation: {} }, handlers: clientHandlers });
      await test.connection.elicitInput({ ...FORM, mode: 'form' });
      expect(test.requests('elicitation/create')[0]?.params).toEqual(FORM);
    });
  });

  describe('#listRoots', () => {
    it('lists roots when the client declared roots, related to the tool call', async () => {
      const test = await initializedClient(askingServer(), { capabilities: { roots: {} }, handlers: clientHandlers });
      await expect(test.client.request('tools/call', { name: 'test_roots' })).resolves.toEqual({ content: [{ type: 'text', text: 'file:///work' }] });
    });

    it('refuses locally without the roots capability', async () => {
      const test = await initializedClient(askingServer(), { capabilities: {}, handlers: clientHandlers });
      await expect(test.connection.listRoots()).rejects.toMatchObject({ capability: 'roots' });
    });
  });
});
