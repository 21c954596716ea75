/**
 * Custom (non-spec) methods from the server's side: against our client (both ways, through
 * the ledger and `inspect`) and against the official SDK 1.x client, which sends custom
 * requests with `request(…, schema)` and answers them through `setRequestHandler(schema, …)`.
 */
import { readFileSync } from 'node:fs';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { Client } from '@statemcp/client';
import { CapabilityNotSupportedError, InMemoryTransport, InvalidArgumentError, type InspectEvent } from '@statemcp/protocol';
import { createOfficialBridge } from '@statemcp/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { main } from '../examples/custom-methods.js';
import { McpServer } from './mcp-server.js';
import { Server } from './server.js';
import { flush, initializedClient } from './test-harness.js';

const search = { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) };

function searchServer(events?: InspectEvent[]): McpServer {
  const server = new McpServer({ name: 'custom', version: '1.0.0' }, events === undefined ? {} : { inspect: (event) => events.push(event) });
  server.method('com.example/search', search, ({ query }) => ({ hits: [`hit for ${query}`] }));
  return server;
}

describe('Server custom methods', () => {
  describe('#method', () => {
    it('refuses spec methods and names without a vendor prefix', () => {
      const server = new Server({ name: 's', version: '1' });
      expect(() => server.method('tools/call', {}, () => ({}))).toThrow(InvalidArgumentError);
      expect(() => server.method('resources/mine', {}, () => ({}))).toThrow(/namespace of the MCP specification/);
      expect(() => server.notification('hello', {}, () => undefined)).toThrow(/no namespace/);
    });

    it('declares the opt-in and answers through the ledger, visible in inspect', async () => {
      const events: InspectEvent[] = [];
      const server = searchServer(events);
      const { client, connection } = await initializedClient(server);
      expect(client.peer?.capabilities.experimental).toEqual({ 'com.example/search': {} });
      expect(connection.capabilities.experimental).toEqual({ 'com.example/search': {} });
      await expect(client.request('com.example/search', { query: 'q' }, { custom: search })).resolves.toEqual({ hits: ['hit for q'] });
      const states = events.flatMap((event) => (event.type === 'request.transition' && event.method === 'com.example/search' ? [event.to] : []));
      expect(states).toEqual(expect.arrayContaining(['processing', 'completed']));
    });

    it('answers -32601 once removed, and for unregistered non-spec methods', async () => {
      const server = searchServer();
      server.server.setRequestHandler('com.example/raw', () => ({}));
      const { client } = await initializedClient(server);
      await expect(client.request('com.example/raw', {}, { custom: { optIn: false } })).rejects.toMatchObject({ code: -32601 });
      server.server.removeRequestHandler('com.example/search');
      await expect(client.request('com.example/search', { query: 'q' }, { custom: search })).rejects.toMatchObject({ code: -32601 });
    });
  });

  describe('ServerConnection#request', () => {
    it('asks the client only when it declared the method', async () => {
      const server = searchServer();
      const { connection } = await initializedClient(server, { capabilities: { experimental: { 'com.example/confirm': {} } } });
      await expect(connection.request('com.example/other', {})).rejects.toBeInstanceOf(CapabilityNotSupportedError);
      await expect(connection.request('sampling/createMessage', {})).rejects.toBeInstanceOf(InvalidArgumentError);
      await flush();
    });
  });

  it('runs the README example', async () => {
    await expect(main()).resolves.toEqual([
      'client asked: search for mcp?',
      'hits: mcp #1',
      'server saw mcp #1',
      'refused: InvalidArgumentError',
    ]);
    const example = readFileSync(new URL('../examples/custom-methods.ts', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(readme).toContain('```ts\n' + example + '```');
  });
});

describe('Server custom methods against the official SDK 1.x client', () => {
  it('answers its custom requests and notifications, and sends it one', async () => {
    const server = searchServer();
    const seen: string[] = [];
    server.notification('com.example/seen', { params: z.object({ hit: z.string() }) }, ({ hit }) => void seen.push(hit));
    const official = new ClientV1({ name: 'official', version: '1.0.0' }, { capabilities: { experimental: { 'com.example/confirm': {} } } });
    official.setRequestHandler(z.object({ method: z.literal('com.example/confirm'), params: z.object({ question: z.string() }) }), (request) => ({
      ok: request.params.question.endsWith('?'),
    }));
    const { ours, theirs } = createOfficialBridge();
    const connection = await server.connect(ours);
    await official.connect(theirs);
    expect(official.getServerCapabilities()?.experimental).toEqual({ 'com.example/search': {}, 'com.example/seen': {} });
    await expect(official.request({ method: 'com.example/search', params: { query: 'x' } }, search.result)).resolves.toEqual({ hits: ['hit for x'] });
    await expect(official.request({ method: 'com.example/search', params: { query: 1 } }, search.result)).rejects.toMatchObject({ code: -32602 });
    await expect(official.request({ method: 'com.example/nothing', params: {} }, z.object({}))).rejects.toMatchObject({ code: -32601 });
    await official.notification({ method: 'com.example/seen', params: { hit: 'x' } });
    await expect(connection.request('com.example/confirm', { question: 'ok?' }, { result: z.object({ ok: z.boolean() }) })).resolves.toEqual({ ok: true });
    await flush();
    expect(seen).toEqual(['x']);
    await official.close();
  });
});

describe('Server custom methods with our client', () => {
  it('refuses locally when the client did not declare the method', async () => {
    const server = new McpServer({ name: 's', version: '1' });
    const client = new Client({ name: 'c', version: '1' });
    const [a, b] = InMemoryTransport.createPair();
    const connection = await server.connect(b);
    await client.connect(a);
    await expect(connection.notify('com.example/ping', {})).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await expect(client.request('com.example/search', { query: 'q' }, search)).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await client.close();
  });
});

describe('Server custom methods in the 2026-07-28 era', () => {
  it('declares the opt-in under extensions in server/discover, so our client calls the method', async () => {
    const server = searchServer();
    const client = new Client({ name: 'c', version: '1' }, { era: 'modern' });
    const [a, b] = InMemoryTransport.createPair();
    await server.connect(b);
    await client.connect(a);
    expect(client.protocolVersion).toBe('2026-07-28');
    await expect(client.request('com.example/search', { query: 'q' }, search)).resolves.toEqual({ hits: ['hit for q'] });
    await client.close();
    await server.close();
  });
});
