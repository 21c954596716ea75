/**
 * Framing and JSON-RPC (MCP 2025-11-25 basic/index §Messages, basic/transports §stdio; MCP
 * 2025-03-26 basic §Batching) as far as the runner decides them.
 */
import { describe, expect, it } from 'vitest';
import { createPair, flush, serverWithRawClient } from './test-support.js';

describe('Session framing rules', () => {
  it('outgoing request ids are integers, never null', async () => {
    const pair = createPair();
    pair.server.setRequestHandler('tools/list', () => ({ tools: [] }));
    const ids: unknown[] = [];
    pair.clientTransport.context = undefined;
    await pair.handshake();
    const original = pair.clientTransport.send.bind(pair.clientTransport);
    pair.clientTransport.send = (message) => {
      if ('id' in message && 'method' in message) ids.push(message.id);
      return original(message);
    };
    await pair.client.request('tools/list');
    expect(ids).toHaveLength(1);
    expect(Number.isInteger(ids[0])).toBe(true);
  });

  it('10 000 requests in one session get unique ids', async () => {
    const pair = createPair();
    pair.server.setRequestHandler('tools/list', () => ({ tools: [] }));
    await pair.handshake();
    const seen = new Set<unknown>();
    const original = pair.clientTransport.send.bind(pair.clientTransport);
    pair.clientTransport.send = (message) => {
      if ('id' in message && 'method' in message) seen.add(message.id);
      return original(message);
    };
    await Promise.all(Array.from({ length: 10_000 }, () => pair.client.request('tools/list')));
    expect(seen.size).toBe(10_000);
  });

  it('a response echoes the request id and carries exactly one of result or error', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 'abc', method: 'ping' });
    await peer.send({ jsonrpc: '2.0', id: 7, method: 'no/such' });
    await flush();
    const ok = peer.response('abc');
    const bad = peer.response(7);
    expect(ok).toEqual({ jsonrpc: '2.0', id: 'abc', result: {} });
    expect(bad).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
    expect(bad).not.toHaveProperty('result');
  });

  it('the error reply to an unparseable message carries "id": null (JSON-RPC 2.0 §5), and an id-less error reply is parsed without crashing', async () => {
    const { peer, serverTransport, initialize, server } = await serverWithRawClient();
    await initialize();
    serverTransport.injectMalformed('{"jsonrpc":"2.0","id":1,"method":');
    await flush();
    const parseError = peer.received.find((m) => (m.error as { code?: number } | undefined)?.code === -32700);
    expect(parseError).toBeDefined();
    expect(parseError).toHaveProperty('id', null);
    await peer.send({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } });
    await flush();
    expect(server.state.kind).toBe('operating');
  });

  it('codes are -32700 parse, -32601 unknown method, -32602 bad params, -32603 internal', async () => {
    const { peer, server, serverTransport, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/call', () => {
      throw new Error('boom');
    });
    await initialize();
    serverTransport.injectMalformed('not json');
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'unknown/method' });
    await peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 42 } });
    await peer.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'x' } });
    await flush();
    expect(peer.received.some((m) => (m.error as { code?: number } | undefined)?.code === -32700)).toBe(true);
    expect(peer.response(1)).toMatchObject({ error: { code: -32601 } });
    expect(peer.response(2)).toMatchObject({ error: { code: -32602 } });
    expect(peer.response(3)).toMatchObject({ error: { code: -32603, message: 'boom' } });
  });

  it('a notification never produces a response, even an unknown one', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize();
    const before = peer.received.length;
    await peer.send({ jsonrpc: '2.0', method: 'notifications/unknown' });
    await peer.send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'nope', progress: 1 } });
    await flush();
    expect(peer.received.length).toBe(before);
  });

  it('at 2025-03-26 a batch is accepted and each request answered', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize('2025-03-26');
    await peer.send([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/unknown' },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ] as never);
    await flush();
    expect(peer.response(1)).toMatchObject({ result: {} });
    expect(peer.response(2)).toMatchObject({ result: {} });
  });

  it('at 2025-03-26 initialize inside a batch is rejected', async () => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize('2025-03-26');
    await peer.send([{ jsonrpc: '2.0', id: 9, method: 'initialize', params: {} }] as never);
    await flush();
    expect(peer.response(9)).toMatchObject({ error: { code: -32600, message: 'Invalid request: initialize must not be part of a batch' } });
  });

  it.each(['2024-11-05', '2025-06-18', '2025-11-25'])('at %s a batch array is rejected with -32600', async (version) => {
    const { peer, initialize } = await serverWithRawClient();
    await initialize(version);
    await peer.send([{ jsonrpc: '2.0', id: 1, method: 'ping' }] as never);
    await flush();
    const error = peer.received.find((m) => (m.error as { code?: number } | undefined)?.code === -32600);
    expect(error).toBeDefined();
    expect(peer.response(1)).toBeUndefined();
  });

  it('non-ASCII strings round-trip', async () => {
    const pair = createPair();
    pair.server.setRequestHandler('tools/call', (params) => ({ content: [{ type: 'text', text: String((params.arguments as { s: string }).s) }] }));
    await pair.handshake();
    const text = 'héllo — 世界 🚀';
    await expect(pair.client.request('tools/call', { name: 'echo', arguments: { s: text } })).resolves.toMatchObject({ content: [{ text }] });
  });
});
