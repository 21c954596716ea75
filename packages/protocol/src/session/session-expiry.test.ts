/** Session expiry (Streamable HTTP 404) as a connection-machine event driven by the runner (issue 11 #1). */
import { describe, expect, it } from 'vitest';
import { CapabilityNotSupportedError, ConnectionClosedError, InvalidResultError, SessionChangedError, type McpError } from '../errors/errors.js';
import type { JsonRpcRequest } from '../jsonrpc/messages.js';
import type { InspectEvent } from '../observability/events.js';
import { SimulatedClock } from './clock.js';
import { Session } from './session.js';
import { ScriptedTransport, clientOnScriptedTransport, flush } from './test-support.js';

const requestsSent = (sent: readonly unknown[], method: string) => sent.filter((m): m is JsonRpcRequest => (m as { method?: string }).method === method && 'id' in (m as object));

describe('Session (client)', () => {
  describe('#onSessionExpired', () => {
    it('re-sends the remembered initialize through the ledger, validates it, and resumes Operating with pending and waiting requests', async () => {
      const events: InspectEvent[] = [];
      const { client, transport } = await clientOnScriptedTransport({ client: { inspect: (event) => void events.push(event) } });
      const firstInit = transport.lastRequest('initialize');
      const pending = client.request('tools/list', {});
      await flush();
      const pendingId = transport.lastRequest('tools/list').id;

      transport.sink.onSessionExpired?.();
      expect(client.state).toMatchObject({ kind: 'initializing', previous: { version: '2025-11-25' } });
      const again = transport.lastRequest('initialize');
      expect(again.id).not.toBe(firstInit.id);
      expect(again.params).toEqual(firstInit.params);
      expect(client.pendingRequests().map((r) => [r.method, r.state])).toEqual([
        ['tools/list', 'dispatched'],
        ['initialize', 'dispatched'],
      ]);
      const waiting = client.request('tools/list', { cursor: 'next' });
      expect(client.pendingRequests().at(-1)).toMatchObject({ method: 'tools/list', state: 'created' });

      transport.answer(again.id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'scripted', version: '2' } });
      await flush();
      expect(client.state.kind).toBe('operating');
      expect(client.peer?.info.version).toBe('2');
      expect(transport.protocolVersions).toEqual(['2025-11-25', '2025-11-25']);
      const initializedCount = transport.sent.filter((m) => 'method' in m && m.method === 'notifications/initialized').length;
      expect(initializedCount).toBe(2);
      const lists = requestsSent(transport.sent, 'tools/list');
      expect(lists).toHaveLength(2);
      const lastInitialized = transport.sent.findLastIndex((m) => 'method' in m && m.method === 'notifications/initialized');
      expect(transport.sent.indexOf(lists[1] as JsonRpcRequest)).toBeGreaterThan(lastInitialized);

      transport.answer(pendingId, { tools: [] });
      transport.answer((lists[1] as JsonRpcRequest).id, { tools: [{ name: 't', inputSchema: { type: 'object' } }] });
      await expect(pending).resolves.toEqual({ tools: [] });
      await expect(waiting).resolves.toMatchObject({ tools: [{ name: 't' }] });
      const transitions = events.filter((e) => e.type === 'session.transition').map((e) => (e.type === 'session.transition' ? `${e.from}>${e.to}:${e.event}` : ''));
      expect(transitions).toContain('operating>initializing:sessionExpired');
      expect(events.some((e) => e.type === 'request.transition' && e.method === 'initialize' && e.requestId === again.id)).toBe(true);
    });

    it.each([
      ['a changed protocol version', { protocolVersion: '2025-06-18', capabilities: { tools: {} } }, { version: '2025-06-18', lost: [] as string[] }],
      ['a lost server capability', { protocolVersion: '2025-11-25', capabilities: {} }, { version: '2025-11-25', lost: ['tools'] }],
    ])('ends the session with SessionChangedError on %s, never switching silently', async (_name, answer, expected) => {
      const { client, transport } = await clientOnScriptedTransport();
      const pending = client.request('tools/list', {}).catch((error: unknown) => error);
      await flush();
      transport.sink.onSessionExpired?.();
      transport.answer(transport.lastRequest('initialize').id, { ...answer, serverInfo: { name: 'scripted', version: '2' } });
      await flush();
      const info = await client.closed;
      expect(info.reason).toBe('sessionChanged');
      expect(info.error).toBeInstanceOf(SessionChangedError);
      const error = info.error as SessionChangedError;
      expect(error).toMatchObject({ code: 'SESSION_CHANGED', category: 'interrupted', previousVersion: '2025-11-25', version: expected.version });
      expect(error.lostCapabilities).toEqual(expected.lost);
      expect(await pending).toBeInstanceOf(ConnectionClosedError);
      expect(transport.protocolVersions).toEqual(['2025-11-25']);
      expect(transport.sent.filter((m) => 'method' in m && m.method === 'notifications/initialized')).toHaveLength(1);
    });

    it('validates the new InitializeResult like the first and closes on an invalid one', async () => {
      const { client, transport } = await clientOnScriptedTransport();
      transport.sink.onSessionExpired?.();
      transport.answer(transport.lastRequest('initialize').id, { protocolVersion: '2025-11-25', capabilities: { tools: {} } });
      const info = await client.closed;
      expect(info.reason).toBe('initializeFailed');
      expect(info.error).toBeInstanceOf(InvalidResultError);
      expect((info.error as McpError).category).toBe('format');
    });

    it('ignores a second report while the handshake is already re-running', async () => {
      const { client, transport } = await clientOnScriptedTransport();
      transport.sink.onSessionExpired?.();
      transport.sink.onSessionExpired?.();
      expect(client.state.kind).toBe('initializing');
      expect(requestsSent(transport.sent, 'initialize')).toHaveLength(2);
      await client.close();
    });
  });

  describe('requests made during the handshake', () => {
    it('wait in the ledger as created, and can be cancelled or time out without ever being sent', async () => {
      const { client, transport, clock } = await clientOnScriptedTransport();
      transport.sink.onSessionExpired?.();
      const controller = new AbortController();
      const cancelled = client.request('tools/list', {}, { signal: controller.signal }).catch((error: unknown) => error);
      const timed = client.request('tools/list', { cursor: 'x' }, { timeoutMs: 500 }).catch((error: unknown) => error);
      expect(client.pendingRequests().filter((r) => r.state === 'created')).toHaveLength(2);
      controller.abort('changed my mind');
      expect(await cancelled).toMatchObject({ code: 'REQUEST_CANCELLED' });
      clock.advance(500);
      expect(await timed).toMatchObject({ code: 'REQUEST_TIMEOUT' });
      expect(requestsSent(transport.sent, 'tools/list')).toEqual([]);
      expect(transport.sent.filter((m) => 'method' in m && m.method === 'notifications/cancelled')).toEqual([]);
      expect(client.pendingRequests().map((r) => r.method)).toEqual(['initialize']);
    });

    it('fail with the capability error, never sent, when the handshake shows the server cannot serve them', async () => {
      const transport = new ScriptedTransport();
      const client = new Session({ role: 'client', clock: new SimulatedClock(), capabilities: () => ({}) });
      await client.connect(transport);
      const initialized = client.initialize({ capabilities: {}, clientInfo: { name: 'c', version: '1' } });
      const prompts = client.request('prompts/list', {}).catch((error: unknown) => error);
      const tools = client.request('tools/list', {});
      transport.answer(transport.lastRequest('initialize').id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 's', version: '1' } });
      await initialized;
      await flush();
      expect(await prompts).toBeInstanceOf(CapabilityNotSupportedError);
      expect(requestsSent(transport.sent, 'prompts/list')).toEqual([]);
      transport.answer(transport.lastRequest('tools/list').id, { tools: [] });
      await expect(tools).resolves.toEqual({ tools: [] });
    });
  });
});
