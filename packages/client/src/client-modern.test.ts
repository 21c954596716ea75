/** The client in the 2026-07-28 era: discovery, fallback, and MRTR through the same handlers as the legacy era. */
import { SimulatedClock, type JsonObject } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { flush } from '../test/peer.js';
import { createScriptedServer } from '../test/scripted-server.js';
import { Client } from './client.js';

const info = { name: 'modern-client', version: '1.0.0' };
const discovered = {
  resultType: 'complete',
  supportedVersions: ['2026-07-28'],
  capabilities: { tools: {} },
  ttlMs: 60_000,
  cacheScope: 'public',
  _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'modern-server', version: '3.0.0' } },
};
const elicit = { method: 'elicitation/create', params: { mode: 'form', message: 'Your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string', default: 'Ada' } } } } };

describe('Client (modern era)', () => {
  describe('#connect', () => {
    it("discovers a modern server with era 'auto' and calls it with the per-request _meta", async () => {
      const server = await createScriptedServer({
        answer: (method) => (method === 'server/discover' ? discovered : method === 'tools/list' ? { resultType: 'complete', tools: [], ttlMs: 0, cacheScope: 'public' } : undefined),
      });
      const client = new Client(info, { era: 'auto', roots: [{ uri: 'file:///work' }] });
      await client.connect(server.clientSide);
      expect(client.era).toBe('modern');
      expect(client.protocolVersion).toBe('2026-07-28');
      expect(client.serverInfo).toEqual({ name: 'modern-server', version: '3.0.0' });
      expect(client.serverCapabilities).toEqual({ tools: {} });
      expect(server.requests('initialize')).toEqual([]);
      await client.listTools();
      expect(server.requests('tools/list')[0]?.params?._meta).toEqual({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { roots: { listChanged: true } },
        'io.modelcontextprotocol/clientInfo': info,
      });
      await client.setRoots([{ uri: 'file:///elsewhere' }]); // no roots/list_changed in this era: nothing is sent
      expect(server.notifications('notifications/roots/list_changed')).toEqual([]);
      await client.close();
    });

    it("falls back to the handshake with era 'auto' when discovery gets no answer in time", async () => {
      const clock = new SimulatedClock();
      const server = await createScriptedServer();
      const client = new Client(info, { era: 'auto', clock, discoveryTimeoutMs: 1_000 });
      const connecting = client.connect(server.clientSide);
      await flush();
      expect(server.requests('server/discover')).toHaveLength(1);
      clock.advance(1_000);
      await connecting;
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(server.requests('initialize')).toHaveLength(1);
    });

    it("discovers by default (era 'auto') and falls back to the handshake on a legacy server", async () => {
      const server = await createScriptedServer();
      const client = new Client(info);
      await client.connect(server.clientSide);
      expect(server.received.slice(0, 2).map((m) => m.method)).toEqual(['server/discover', 'initialize']);
      expect(client.era).toBe('legacy');
    });

    it("keeps to the handshake with era 'legacy'", async () => {
      const server = await createScriptedServer();
      const client = new Client(info, { era: 'legacy' });
      await client.connect(server.clientSide);
      expect(server.received[0]?.method).toBe('initialize');
      expect(client.era).toBe('legacy');
    });
  });

  describe('#callTool input rounds', () => {
    it('answers an elicitation input request through onElicitation (defaults applied) and echoes the state', async () => {
      const calls: JsonObject[] = [];
      const server = await createScriptedServer({
        answer: (method, params) => {
          if (method === 'server/discover') return discovered;
          if (method !== 'tools/call') return undefined;
          calls.push(params);
          if (params.inputResponses === undefined) return { resultType: 'input_required', inputRequests: { user_name: elicit }, requestState: 'state-1' };
          const answer = (params.inputResponses as JsonObject).user_name as JsonObject;
          return { resultType: 'complete', content: [{ type: 'text', text: `Hello, ${String((answer.content as JsonObject).name)}!` }] };
        },
      });
      const client = new Client(info, { era: 'modern', onElicitation: () => ({ action: 'accept', content: {} }) });
      await client.connect(server.clientSide);
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      const ids = server.requests('tools/call').map((request) => request.id);
      expect(new Set(ids).size).toBe(2);
      expect(calls[1]).toMatchObject({ name: 'greet', requestState: 'state-1', inputResponses: { user_name: { action: 'accept', content: { name: 'Ada' } } } });
      expect(calls[1]?._meta).toMatchObject({ 'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } } });
    });

    it('gives handlers their input keys and, with concurrentInputs, answers a round all at once', async () => {
      const server = await createScriptedServer({
        answer: (method, params) => {
          if (method === 'server/discover') return discovered;
          if (method !== 'tools/call') return undefined;
          if (params.inputResponses === undefined) return { resultType: 'input_required', inputRequests: { first: elicit, second: elicit }, requestState: 'state-1' };
          return { resultType: 'complete', content: [{ type: 'text', text: Object.keys(params.inputResponses as JsonObject).join(',') }] };
        },
      });
      const started: (string | undefined)[] = [];
      let release: () => void = () => {};
      const bothAsked = new Promise<void>((resolve) => (release = resolve));
      const client = new Client(info, {
        era: 'modern',
        concurrentInputs: true,
        onElicitation: async (_params, context) => {
          started.push(context.inputKey);
          if (started.length === 2) release();
          await bothAsked; // resolves only when both are being answered at once
          return { action: 'decline' };
        },
      });
      await client.connect(server.clientSide);
      await expect(client.callTool({ name: 'greet', arguments: {} })).resolves.toMatchObject({ content: [{ text: 'first,second' }] });
      expect(started).toEqual(['first', 'second']);
    });
  });

  describe('options.requestCapabilities', () => {
    it('states the capabilities it returns in the request, the declared ones when it returns none', async () => {
      const server = await createScriptedServer({ answer: (method) => (method === 'server/discover' ? discovered : method === 'tools/call' ? { resultType: 'complete', content: [] } : undefined) });
      let stated: JsonObject | undefined = { sampling: {} };
      const client = new Client(info, { era: 'modern', roots: [], requestCapabilities: () => stated });
      await client.connect(server.clientSide);
      await client.callTool({ name: 'a', arguments: {} });
      stated = undefined;
      await client.callTool({ name: 'b', arguments: {} });
      const capabilities = server.requests('tools/call').map((request) => (request.params?._meta as JsonObject)['io.modelcontextprotocol/clientCapabilities']);
      expect(capabilities).toEqual([{ sampling: {} }, { roots: { listChanged: true } }]);
    });
  });
});
