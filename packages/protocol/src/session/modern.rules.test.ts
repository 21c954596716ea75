import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../jsonrpc/messages.js';
import { flush, serverWithRawClient } from './test-support.js';

const MODERN = '2026-07-28';
const meta = (capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject => ({
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': capabilities,
  'io.modelcontextprotocol/clientInfo': { name: 'modern', version: '1' },
  ...extra,
});

async function modernServer() {
  const harness = await serverWithRawClient();
  const seen: unknown[] = [];
  harness.server.setRequestHandler('tools/list', (_params, context) => {
    seen.push(context.requester);
    return { tools: [], ttlMs: 0, cacheScope: 'public' };
  });
  return { ...harness, seen };
}

describe('Session, 2026-07-28 server rules (MCP 2026-07-28 basic/index)', () => {
  it('serves a self-describing request without a handshake and adds resultType', async () => {
    const { server, peer } = await modernServer();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    await flush();
    expect(server.state).toMatchObject({ kind: 'operating', version: MODERN });
    expect(server.protocolVersion).toBe(MODERN);
    expect(peer.response(1)).toMatchObject({ result: { resultType: 'complete', tools: [] } });
  });

  it('answers -32602 when the required _meta is missing (MCP 2026-07-28 basic/index §_meta)', async () => {
    const { peer } = await modernServer();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN } } });
    await flush();
    expect(peer.response(2)).toMatchObject({ error: { code: -32602 } });
    expect(peer.response(3)).toMatchObject({ error: { code: -32602 } });
  });

  it('answers -32022 with supported and requested for an unserved version', async () => {
    const { server, peer } = await modernServer();
    await peer.send({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: { _meta: meta({}, { 'io.modelcontextprotocol/protocolVersion': '1900-01-01' }) } });
    await flush();
    expect(peer.response(9)).toMatchObject({ error: { code: -32022, data: { supported: [MODERN], requested: '1900-01-01' } } });
    expect(server.state.kind).toBe('uninitialized');
  });

  it('gives each handler the capabilities and clientInfo of its own request, never of an earlier one', async () => {
    const { peer, seen } = await modernServer();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta({ sampling: {} }) } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta({}, { 'io.modelcontextprotocol/clientInfo': undefined }) } });
    await flush();
    expect(seen).toEqual([{ capabilities: { sampling: {} }, info: { name: 'modern', version: '1' } }, { capabilities: {} }]);
  });

  it('answers removed methods (ping, initialize, logging/setLevel) with -32601', async () => {
    const { peer } = await modernServer();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: meta() } });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { _meta: meta() } });
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'info', _meta: meta() } });
    await flush();
    for (const id of [1, 2, 3]) expect(peer.response(id)).toMatchObject({ error: { code: -32601 } });
  });

  it('still runs the legacy handshake for a legacy client (dual-era by default)', async () => {
    const { server, peer, initialize } = await modernServer();
    await initialize('2025-11-25');
    await peer.send({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    await flush();
    expect(server.protocolVersion).toBe('2025-11-25');
    expect(peer.response(5)).toMatchObject({ result: { tools: [] } });
    expect((peer.response(5) as { result: JsonObject }).result.resultType).toBeUndefined();
  });

  it('never puts 2026-07-28 in an initialize answer', async () => {
    const { peer, initialize } = await modernServer();
    await initialize('2026-07-28');
    expect(peer.response('init')).toMatchObject({ result: { protocolVersion: '2025-11-25' } });
  });

  it('serves only the legacy era when supportedVersions lists no modern version', async () => {
    const { peer } = await serverWithRawClient({ server: { supportedVersions: ['2025-11-25'] } });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } });
    await flush();
    expect(peer.response(1)).toMatchObject({ error: { code: -32600 } });
  });

  it('refuses initialize with -32602 "Unsupported protocol version" when supportedVersions lists no handshake revision', async () => {
    const { server, peer } = await serverWithRawClient({ server: { supportedVersions: [MODERN] } });
    await peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'legacy', version: '1' } } });
    await flush();
    expect(peer.response('init')).toMatchObject({ error: { code: -32602, message: 'Unsupported protocol version', data: { supported: [MODERN], requested: '2025-11-25' } } });
    expect(server.state.kind).not.toBe('operating');
  });
});
