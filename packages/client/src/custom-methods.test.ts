/**
 * Custom (non-spec) methods from the client's side: against a protocol-level server session
 * (opt-in, validation, reconnects) and against the official SDK 1.x server, which handles
 * custom requests through `setRequestHandler(schema, …)` and sends them with `request()`.
 */
import { Server as ServerV1 } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport, Session, type JsonObject, CustomMethodTable, declareCustomOptIns } from '@statemcp/protocol';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityNotSupportedError, InvalidArgumentError, InvalidResultError } from './index.js';
import { Client } from './client.js';

const search = { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) };

/** A protocol-level server session answering `com.example/search`, declared when `declare` is true. */
async function searchServer(client: Client, declare = true): Promise<Session> {
  const table = new CustomMethodTable();
  table.defineRequest('com.example/search', search);
  const capabilities = declare ? declareCustomOptIns({}, table.optIns(), '2025-11-25') : {};
  const server = new Session({
    role: 'server',
    customMethods: table,
    capabilities: () => capabilities,
    onInitialize: (_params, version) => ({ protocolVersion: version, capabilities, serverInfo: { name: 'custom', version: '1' } }),
  });
  server.setRequestHandler('com.example/search', (params) => ({ hits: [`found ${String(params.query)}`] }));
  const [ours, theirs] = InMemoryTransport.createPair();
  await server.connect(theirs);
  await client.connect(ours);
  return server;
}

describe('Client custom methods', () => {
  describe('#request', () => {
    it('sends a custom request the server declared and validates the result', async () => {
      const client = new Client({ name: 'c', version: '1' });
      await searchServer(client);
      const { hits } = await client.request('com.example/search', { query: 'x' }, search);
      expect(hits).toEqual(['found x']);
      await expect(client.request('com.example/search', { query: 'x' }, { result: z.object({ total: z.number() }) })).rejects.toBeInstanceOf(InvalidResultError);
      await client.close();
    });

    it('refuses locally what the server did not declare, and spec or unprefixed names', async () => {
      const client = new Client({ name: 'c', version: '1' });
      await searchServer(client, false);
      await expect(client.request('com.example/search', { query: 'x' }, search)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      await expect(client.request('com.example/search', { query: 'x' }, { ...search, optIn: false })).resolves.toEqual({ hits: ['found x'] });
      await expect(client.request('tools/list')).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(client.request('search')).rejects.toThrow(/no namespace/);
      await client.close();
    });
  });

  describe('#method', () => {
    it('declares what it answers under experimental, on every connection', async () => {
      const client = new Client({ name: 'c', version: '1' }, { capabilities: { experimental: { other: { on: true } } } });
      client.method('com.example/confirm', { params: z.object({ question: z.string() }), result: z.object({ ok: z.boolean() }) }, ({ question }) => ({ ok: question.length > 0 }));
      expect(() => client.method('roots/list', {}, () => ({}))).toThrow(/method of the MCP specification/);
      for (let round = 0; round < 2; round++) {
        const server = await searchServer(client);
        expect(client.capabilities.experimental).toEqual({ other: { on: true }, 'com.example/confirm': {} });
        await expect(server.request('com.example/confirm', { question: 'go?' }, { custom: {} })).resolves.toEqual({ ok: true });
        await client.close();
      }
    });
  });
});

describe('Client custom methods against the official SDK 1.x server', () => {
  async function official(client: Client): Promise<{ server: ServerV1; received: JsonObject[] }> {
    const server = new ServerV1({ name: 'official', version: '1.0.0' }, { capabilities: { experimental: { 'com.example/search': {} } } });
    server.setRequestHandler(z.object({ method: z.literal('com.example/search'), params: z.object({ query: z.string() }) }), (request) => ({
      hits: [`official ${request.params.query}`],
    }));
    const received: JsonObject[] = [];
    server.setNotificationHandler(z.object({ method: z.literal('com.example/note'), params: z.object({ text: z.string() }) }), (notification) => {
      received.push(notification.params);
    });
    const { ours, theirs } = createOfficialBridge();
    await server.connect(theirs);
    await client.connect(ours);
    return { server, received };
  }

  it('calls a custom request on the official server, and answers one from it', async () => {
    const client = new Client({ name: 'c', version: '1' });
    client.method('com.example/confirm', { params: z.object({ question: z.string() }), result: z.object({ ok: z.boolean() }) }, () => ({ ok: true }));
    const { server } = await official(client);
    await expect(client.request('com.example/search', { query: 'q' }, search)).resolves.toEqual({ hits: ['official q'] });
    expect(server.getClientCapabilities()?.experimental).toEqual({ 'com.example/confirm': {} });
    const answer = await server.request({ method: 'com.example/confirm', params: { question: 'go?' } }, z.object({ ok: z.boolean() }));
    expect(answer).toEqual({ ok: true });
    const invalid = server.request({ method: 'com.example/confirm', params: { question: 7 } }, z.object({ ok: z.boolean() }));
    await expect(invalid).rejects.toMatchObject({ code: -32602 });
    const unknown = server.request({ method: 'com.example/unknown', params: {} }, z.object({}));
    await expect(unknown).rejects.toMatchObject({ code: -32601 });
    await client.close();
  });

  it('sends a custom notification the official server handles', async () => {
    const client = new Client({ name: 'c', version: '1' });
    const { received } = await official(client);
    await client.notify('com.example/note', { text: 'hello' }, { params: z.object({ text: z.string() }), optIn: false });
    await expect(client.notify('com.example/note', { text: 'hello' })).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([{ text: 'hello' }]);
    await client.close();
  });
});
