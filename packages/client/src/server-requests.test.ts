import { CapabilityNotSupportedError, InvalidArgumentError, InvalidStateError, JsonRpcError, LEGACY_PROTOCOL_VERSIONS, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { createPeer, flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';
import type { CreateMessageResult } from './types.js';

const ELICITATION_VERSIONS = ['2025-06-18', '2025-11-25'] as const;

const sampleParams = { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 100 };
const reply: CreateMessageResult = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test-model', stopReason: 'endTurn' };

/** The SEP-1034 schema of the conformance scenario `elicitation-sep1034-client-defaults`. */
const defaultsSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe' },
    age: { type: 'integer', default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
    verified: { type: 'boolean', default: true },
  },
};

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable('expected a rejection'),
    (error: unknown) => error,
  );
}

describe('Client', () => {
  describe('#onSampling', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('answers sampling/createMessage with the handler at %s', async (version) => {
      const peer = createPeer({ version });
      const seen: JsonObject[] = [];
      peer.client.onSampling((params) => (seen.push(params), reply));
      await peer.connect();
      await expect(peer.server.request('sampling/createMessage', sampleParams)).resolves.toEqual(reply);
      expect(seen[0]).toMatchObject(sampleParams);
      expect(peer.server.peer?.capabilities).toMatchObject({ sampling: {} });
    });

    it('passes tools through when sampling.tools was declared (2025-11-25)', async () => {
      const peer = createPeer();
      let tools: unknown;
      peer.client.onSampling((params) => ((tools = params.tools), reply), { tools: true });
      await peer.connect();
      const offered = [{ name: 'lookup', inputSchema: { type: 'object' } }];
      await peer.server.request('sampling/createMessage', { ...sampleParams, tools: offered });
      expect(tools).toEqual(offered);
    });

    it('answers -32602 to tool-enabled sampling when sampling.tools was not declared', async () => {
      const peer = createPeer();
      let calls = 0;
      peer.client.onSampling(() => (calls++, reply));
      await peer.connect();
      const error = await rejection(peer.server.request('sampling/createMessage', { ...sampleParams, tools: [{ name: 't', inputSchema: { type: 'object' } }] }));
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({ code: -32602 });
      expect(calls).toBe(0);
    });

    it('is refused by the server when the client declared no sampling, and answered -32601 if sent anyway', async () => {
      const peer = createPeer();
      await peer.connect();
      await expect(peer.server.request('sampling/createMessage', sampleParams)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      await expect(peer.server.request('sampling/createMessage', sampleParams, { skipCapabilityCheck: true })).rejects.toMatchObject({ code: -32601 });
    });

    it('answers -32603 when the handler returns a result that breaks the schema', async () => {
      const peer = createPeer();
      peer.client.onSampling(() => ({ role: 'assistant', content: { type: 'text', text: 'no model field' } }) as unknown as CreateMessageResult);
      await peer.connect();
      const error = await rejection(peer.server.request('sampling/createMessage', sampleParams));
      expect(error).toMatchObject({ code: -32603 });
      expect((error as Error).message).toContain('model');
    });

    it('answers with the JsonRpcError the handler throws (e.g. -1 when the user declines)', async () => {
      const peer = createPeer();
      peer.client.onSampling(() => {
        throw new JsonRpcError(-1, 'User rejected sampling request');
      });
      await peer.connect();
      await expect(peer.server.request('sampling/createMessage', sampleParams)).rejects.toMatchObject({ code: -1, category: 'model' });
    });

    it('throws InvalidStateError when registered after connect without sampling declared', async () => {
      const peer = createPeer();
      await peer.connect();
      expect(() => peer.client.onSampling(() => reply)).toThrow(InvalidStateError);
    });

    it('can be registered after connect when options.capabilities declared sampling', async () => {
      const peer = createPeer({ client: { capabilities: { sampling: {} } } });
      await peer.connect();
      await expect(peer.server.request('sampling/createMessage', sampleParams)).rejects.toMatchObject({ code: -32601 });
      peer.client.onSampling(() => reply);
      await expect(peer.server.request('sampling/createMessage', sampleParams)).resolves.toEqual(reply);
    });

    it('is taken from options.onSampling', async () => {
      const peer = createPeer({ client: { onSampling: () => reply } });
      await peer.connect();
      await expect(peer.server.request('sampling/createMessage', sampleParams)).resolves.toEqual(reply);
    });
  });

  describe('#onElicitation', () => {
    it.each(ELICITATION_VERSIONS)('answers a form elicitation with the handler at %s', async (version) => {
      const peer = createPeer({ version });
      peer.client.onElicitation(() => ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }));
      await peer.connect();
      const params = {
        message: 'Please provide your information',
        requestedSchema: { type: 'object', properties: { username: { type: 'string' }, email: { type: 'string' } }, required: ['username', 'email'] },
      };
      await expect(peer.server.request('elicitation/create', params)).resolves.toEqual({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } });
    });

    it('fills in schema defaults for every field an accepted form left out (SEP-1034)', async () => {
      const peer = createPeer();
      peer.client.onElicitation(() => ({ action: 'accept', content: {} }));
      await peer.connect();
      const result = await peer.server.request('elicitation/create', { message: 'Defaults?', requestedSchema: defaultsSchema });
      expect(result).toEqual({ action: 'accept', content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true } });
    });

    it('keeps the values the user gave, and leaves declines alone', async () => {
      const peer = createPeer();
      let action: 'accept' | 'decline' = 'accept';
      peer.client.onElicitation(() => (action === 'accept' ? { action, content: { name: 'Ada', verified: false } } : { action }));
      await peer.connect();
      const accepted = await peer.server.request('elicitation/create', { message: 'm', requestedSchema: defaultsSchema });
      expect(accepted.content).toEqual({ name: 'Ada', age: 30, score: 95.5, status: 'active', verified: false });
      action = 'decline';
      await expect(peer.server.request('elicitation/create', { message: 'm', requestedSchema: defaultsSchema })).resolves.toEqual({ action: 'decline' });
    });

    it('does not fill in defaults with applyDefaults false', async () => {
      const peer = createPeer();
      peer.client.onElicitation(() => ({ action: 'accept', content: {} }), { applyDefaults: false });
      await peer.connect();
      await expect(peer.server.request('elicitation/create', { message: 'm', requestedSchema: defaultsSchema })).resolves.toEqual({ action: 'accept', content: {} });
    });

    it('handles URL mode when it was declared', async () => {
      const peer = createPeer();
      const seen: unknown[] = [];
      peer.client.onElicitation((params) => (seen.push(params), { action: 'accept' }), { url: true });
      const completed: string[] = [];
      peer.client.onElicitationComplete((id) => completed.push(id));
      await peer.connect();
      const params = { mode: 'url', message: 'Sign in', elicitationId: 'e-1', url: 'https://example.com/auth' };
      await expect(peer.server.request('elicitation/create', params)).resolves.toEqual({ action: 'accept' });
      expect(seen).toEqual([params]);
      await peer.server.notify('notifications/elicitation/complete', { elicitationId: 'e-1' });
      await flush();
      expect(completed).toEqual(['e-1']);
    });

    it('answers -32602 to a URL-mode request when only form mode was declared', async () => {
      const peer = createPeer();
      let calls = 0;
      peer.client.onElicitation(() => (calls++, { action: 'accept' }));
      await peer.connect();
      const error = await rejection(peer.server.request('elicitation/create', { mode: 'url', message: 'Sign in', elicitationId: 'e', url: 'https://example.com' }));
      expect(error).toMatchObject({ code: -32602 });
      expect(calls).toBe(0);
    });

    it('answers -32602 to a form request when only URL mode was declared', async () => {
      const peer = createPeer();
      peer.client.onElicitation(() => ({ action: 'accept' }), { form: false, url: true });
      await peer.connect();
      expect(peer.client.capabilities.elicitation).toEqual({ url: {} });
      await expect(peer.server.request('elicitation/create', { message: 'm', requestedSchema: defaultsSchema })).rejects.toMatchObject({ code: -32602 });
    });

    it.each(['2024-11-05', '2025-03-26'])('answers -32601 at %s, a revision without elicitation', async (version) => {
      const server = await createScriptedServer({ version });
      const client = new Client({ name: 'c', version: '1' });
      client.onElicitation(() => ({ action: 'accept' }));
      await client.connect(server.clientSide);
      await server.send({ jsonrpc: '2.0', id: 'e1', method: 'elicitation/create', params: { message: 'm', requestedSchema: { type: 'object', properties: {} } } });
      await flush();
      expect(server.responses()).toEqual([{ jsonrpc: '2.0', id: 'e1', error: expect.objectContaining({ code: -32601 }) }]);
    });
  });

  describe('#setRoots', () => {
    it.each(LEGACY_PROTOCOL_VERSIONS)('answers roots/list and announces changes at %s', async (version) => {
      const peer = createPeer({ version, client: { roots: [{ uri: 'file:///a', name: 'a' }] } });
      let changes = 0;
      peer.server.setNotificationHandler('notifications/roots/list_changed', () => void changes++);
      await peer.connect();
      expect(peer.server.peer?.capabilities).toMatchObject({ roots: { listChanged: true } });
      await expect(peer.server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///a', name: 'a' }] });
      await peer.client.setRoots([{ uri: 'file:///a', name: 'a' }]);
      await flush();
      expect(changes).toBe(0);
      await peer.client.setRoots([{ uri: 'file:///b' }]);
      await flush();
      expect(changes).toBe(1);
      await expect(peer.server.request('roots/list')).resolves.toEqual({ roots: [{ uri: 'file:///b' }] });
    });

    it('declares roots when called before connect', async () => {
      const peer = createPeer();
      await peer.client.setRoots([]);
      await peer.connect();
      await expect(peer.server.request('roots/list')).resolves.toEqual({ roots: [] });
    });

    it('refuses roots that are not file:// URIs', async () => {
      const client = new Client({ name: 'c', version: '1' });
      await expect(client.setRoots([{ uri: 'https://example.com' }])).rejects.toBeInstanceOf(InvalidArgumentError);
      expect(() => new Client({ name: 'c', version: '1' }, { roots: [{ uri: 'relative/path' }] })).toThrow(InvalidArgumentError);
    });

    it('throws InvalidStateError after connect when roots were not declared', async () => {
      const peer = createPeer();
      await peer.connect();
      await expect(peer.client.setRoots([{ uri: 'file:///a' }])).rejects.toBeInstanceOf(InvalidStateError);
      await expect(peer.server.request('roots/list')).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    });
  });
});
