import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CapabilityNotSupportedError, InvalidArgumentError, InvalidResultError, JsonRpcError, RequestCancelledError, RequestTimeoutError } from '../errors/errors.js';
import type { InspectEvent } from '../observability/events.js';
import { CustomMethodTable, customMethodRefusal, customOptInPath, declareCustomOptIns } from './custom-methods.js';
import type { JsonObject } from '../jsonrpc/messages.js';
import { createPair, flush, serverWithRawClient } from './test-support.js';

const searchSpec = { params: z.object({ query: z.string() }), result: z.object({ hits: z.array(z.string()) }) };

/** A pair whose server answers `com.example/search` and declares it under `experimental`. */
function searchPair(options: { declare?: boolean; inspect?: (event: InspectEvent) => void } = {}) {
  const table = new CustomMethodTable();
  table.defineRequest('com.example/search', searchSpec);
  table.defineNotification('com.example/ping', { params: z.object({ n: z.number() }) });
  const capabilities = options.declare === false ? { tools: {} } : declareCustomOptIns({ tools: {} }, table.optIns(), '2025-11-25');
  return createPair({ serverCapabilities: capabilities, server: { customMethods: table, ...(options.inspect !== undefined ? { inspect: options.inspect } : {}) } });
}

describe('customMethodRefusal', () => {
  it('accepts vendor-prefixed names', () => {
    for (const name of ['acme/search', 'com.example/items/list', 'x-myorg/heartbeat', 'mcp-ui/initialize']) expect(customMethodRefusal(name)).toBeUndefined();
  });

  it('refuses a spec method of any revision, spec namespaces, names without a prefix and reserved prefixes', () => {
    expect(customMethodRefusal('tools/call')).toMatch(/method of the MCP specification/);
    expect(customMethodRefusal('server/discover')).toMatch(/method of the MCP specification/); // 2026-07-28 only
    expect(customMethodRefusal('tasks/get')).toMatch(/method of the MCP specification/); // 2025-11-25 only
    expect(customMethodRefusal('ping')).toMatch(/method of the MCP specification/);
    expect(customMethodRefusal('tools/mine')).toMatch(/namespace of the MCP specification/);
    expect(customMethodRefusal('notifications/acme')).toMatch(/namespace of the MCP specification/);
    expect(customMethodRefusal('search')).toMatch(/no namespace/);
    expect(customMethodRefusal('io.modelcontextprotocol/thing')).toMatch(/reserved/);
    expect(customMethodRefusal('bad_label/x')).toMatch(/not a valid custom method name/);
    expect(customMethodRefusal('acme/')).toMatch(/not a valid custom method name/);
  });
});

describe('CustomMethodTable', () => {
  it('refuses to register a spec method, with a clear error', () => {
    const table = new CustomMethodTable();
    expect(() => table.defineRequest('tools/list', {})).toThrow(InvalidArgumentError);
    expect(() => table.defineNotification('notifications/progress', {})).toThrow(/method of the MCP specification/);
  });

  it('lists each opt-in id once, skipping registrations that need none', () => {
    const table = new CustomMethodTable();
    table.defineRequest('acme/a', { optIn: 'acme/ext' });
    table.defineRequest('acme/b', { optIn: 'acme/ext' });
    table.defineNotification('acme/c', {});
    table.defineRequest('acme/d', { optIn: false });
    expect(table.optIns().sort()).toEqual(['acme/c', 'acme/ext']);
    expect(() => table.defineRequest('acme/e', { optIn: 'no-prefix' })).toThrow(/not a valid opt-in id/);
  });
});

describe('declareCustomOptIns', () => {
  it('declares under experimental in legacy revisions and under extensions from 2026-07-28', () => {
    expect(customOptInPath('2025-06-18', 'acme/x')).toEqual(['experimental', 'acme/x']);
    expect(customOptInPath('2026-07-28', 'acme/x')).toEqual(['extensions', 'acme/x']);
    const base = { experimental: { other: { on: true } } };
    expect(declareCustomOptIns(base, ['acme/x'], '2025-11-25')).toEqual({ experimental: { other: { on: true }, 'acme/x': {} } });
    expect(base).toEqual({ experimental: { other: { on: true } } });
    expect(declareCustomOptIns({}, ['acme/x'], '2026-07-28')).toEqual({ extensions: { 'acme/x': {} } });
  });
});

describe('Session custom methods', () => {
  it('routes a custom request both ways with validated params and result', async () => {
    const pair = searchPair();
    pair.server.setRequestHandler('com.example/search', (params) => ({ hits: [String(params.query)], extra: 1 }));
    await pair.handshake();
    const result = await pair.client.request('com.example/search', { query: 'mcp' }, { custom: searchSpec });
    expect(result).toEqual({ hits: ['mcp'] }); // the result schema strips what it does not know
  });

  it('refuses locally a custom request the peer did not declare, unless the spec needs no opt-in', async () => {
    const pair = searchPair({ declare: false });
    pair.server.setRequestHandler('com.example/search', () => ({ hits: [] }));
    await pair.handshake();
    const refused = pair.client.request('com.example/search', { query: 'x' }, { custom: searchSpec });
    await expect(refused).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await expect(refused).rejects.toThrow(/experimental\.com\.example\/search/);
    await expect(pair.client.request('com.example/search', { query: 'x' }, { custom: { ...searchSpec, optIn: false } })).resolves.toEqual({ hits: [] });
  });

  it('refuses a custom send with invalid params before anything is written', async () => {
    const pair = searchPair();
    await pair.handshake();
    await expect(pair.client.request('com.example/search', { query: 1 }, { custom: searchSpec })).rejects.toThrow(InvalidArgumentError);
    expect(pair.client.pendingRequests()).toEqual([]);
  });

  it('fails with InvalidResultError when the result does not match', async () => {
    const pair = searchPair();
    pair.server.setRequestHandler('com.example/search', () => ({ hits: [] }));
    await pair.handshake();
    const wrong = { ...searchSpec, result: z.object({ total: z.number() }) };
    await expect(pair.client.request('com.example/search', { query: 'x' }, { custom: wrong })).rejects.toBeInstanceOf(InvalidResultError);
  });

  it('still refuses a non-spec method sent without a custom spec', async () => {
    const pair = searchPair();
    await pair.handshake();
    await expect(pair.client.request('com.example/search', { query: 'x' })).rejects.toBeInstanceOf(CapabilityNotSupportedError);
  });

  it('puts custom requests through the ledger: timeouts, cancellation, progress and inspect', async () => {
    const events: InspectEvent[] = [];
    const pair = searchPair({ inspect: (event) => events.push(event) });
    pair.server.setRequestHandler('com.example/search', async (_params, context) => {
      await context.sendProgress(1, 2);
      await new Promise((_resolve, reject) => context.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      return { hits: [] };
    });
    await pair.handshake();
    const progress: number[] = [];
    const timedOut = pair.client.request('com.example/search', { query: 'x' }, { custom: searchSpec, timeoutMs: 1000, onProgress: (update) => progress.push(update.progress) });
    await flush();
    expect(pair.server.pendingRequests().map((request) => request.method)).toEqual(['com.example/search']);
    pair.clock.advance(1000);
    await expect(timedOut).rejects.toBeInstanceOf(RequestTimeoutError);
    await flush();
    expect(progress).toEqual([1]);
    expect(pair.server.pendingRequests()).toEqual([]); // the cancellation reached the handler
    const controller = new AbortController();
    const cancelled = pair.client.request('com.example/search', { query: 'y' }, { custom: searchSpec, signal: controller.signal });
    await flush();
    controller.abort('enough');
    await expect(cancelled).rejects.toBeInstanceOf(RequestCancelledError);
    const seen = events.flatMap((event) => (event.type === 'request.transition' && event.method === 'com.example/search' ? [`${event.direction}:${event.to}`] : []));
    expect(seen).toEqual(expect.arrayContaining(['inbound:processing', 'inbound:cancelled']));
  });

  it('answers -32602 for invalid params and -32601 for an unregistered non-spec method', async () => {
    const table = new CustomMethodTable();
    table.defineRequest('com.example/search', searchSpec);
    const { server, peer, initialize } = await serverWithRawClient({ server: { customMethods: table } });
    server.setRequestHandler('com.example/search', () => ({ hits: [] }));
    server.setRequestHandler('com.example/unregistered', () => ({}));
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'com.example/search', params: { query: 5 } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'com.example/unregistered', params: {} });
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'com.example/search', params: { query: 'q', _meta: { trace: 'x' } } });
    await flush();
    expect((peer.response(1)?.error as JsonObject).code).toBe(-32602);
    expect((peer.response(2)?.error as JsonObject).code).toBe(-32601);
    expect(peer.response(3)?.result).toEqual({ hits: [] });
  });

  it('answers -32603 when the handler returns a result its schema refuses', async () => {
    const table = new CustomMethodTable();
    table.defineRequest('com.example/search', searchSpec);
    const { server, peer, initialize } = await serverWithRawClient({ server: { customMethods: table } });
    server.setRequestHandler('com.example/search', () => ({ hits: 'not a list' }));
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'com.example/search', params: { query: 'q' } });
    await flush();
    expect(peer.response(1)?.error).toMatchObject({ code: -32603, message: expect.stringMatching(/invalid result/) });
  });

  it('delivers custom notifications with validated params and drops invalid ones', async () => {
    const pair = searchPair();
    const received: JsonObject[] = [];
    pair.server.setNotificationHandler('com.example/ping', (params) => void received.push(params));
    await pair.handshake();
    const spec = { params: z.object({ n: z.number() }) };
    await pair.client.notify('com.example/ping', { n: 1, _meta: { a: 1 } }, { custom: spec });
    await expect(pair.client.notify('com.example/ping', { n: 'x' }, { custom: spec })).rejects.toBeInstanceOf(InvalidArgumentError);
    await pair.clientTransport.send({ jsonrpc: '2.0', method: 'com.example/ping', params: { n: 'raw' } });
    await flush();
    expect(received).toEqual([{ n: 1 }]);
  });

  it('refuses a custom notification the peer did not declare', async () => {
    const pair = searchPair({ declare: false });
    await pair.handshake();
    await expect(pair.client.notify('com.example/ping', { n: 1 }, { custom: {} })).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await expect(pair.client.notify('com.example/ping', { n: 1 }, { custom: { optIn: false } })).resolves.toBeUndefined();
  });

  it('lets a server send a custom request to a client that declared it', async () => {
    const table = new CustomMethodTable();
    table.defineRequest('com.example/confirm', { result: z.object({ ok: z.boolean() }) });
    const pair = createPair({ clientCapabilities: declareCustomOptIns({}, table.optIns(), '2025-11-25'), client: { customMethods: table } });
    pair.client.setRequestHandler('com.example/confirm', () => ({ ok: true }));
    await pair.handshake();
    await expect(pair.server.request('com.example/confirm', {}, { custom: {} })).resolves.toEqual({ ok: true });
    await expect(pair.server.request('com.example/other', {}, { custom: {} })).rejects.toBeInstanceOf(CapabilityNotSupportedError);
    await expect(pair.server.request('com.example/other', {}, { custom: { optIn: false } })).rejects.toBeInstanceOf(JsonRpcError);
  });
});
