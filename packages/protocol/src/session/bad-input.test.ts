/** Bad input gets the spec's code or is dropped as the spec says, and never throws out of the runner. */
import { describe, expect, it } from 'vitest';
import { flush, serverWithRawClient } from './test-support.js';

const cases: { name: string; input: unknown; code: number | null; id?: unknown }[] = [
  { name: 'a JSON scalar', input: 42, code: -32600 },
  { name: 'a JSON string', input: 'hello', code: -32600 },
  { name: 'null', input: null, code: -32600 },
  { name: 'a JSON array (2025-11-25)', input: [{ jsonrpc: '2.0', id: 1, method: 'ping' }], code: -32600 },
  { name: 'an empty array', input: [], code: -32600 },
  { name: 'a request missing jsonrpc', input: { id: 3, method: 'ping' }, code: -32600, id: 3 },
  { name: 'a request with jsonrpc 1.0', input: { jsonrpc: '1.0', id: 4, method: 'ping' }, code: -32600, id: 4 },
  { name: 'a request with id null', input: { jsonrpc: '2.0', id: null, method: 'ping' }, code: -32600 },
  { name: 'a request with a fractional id', input: { jsonrpc: '2.0', id: 1.5, method: 'ping' }, code: -32600 },
  { name: 'a request with array params', input: { jsonrpc: '2.0', id: 5, method: 'ping', params: [1] }, code: -32600, id: 5 },
  { name: 'an unknown method', input: { jsonrpc: '2.0', id: 6, method: 'does/not/exist' }, code: -32601, id: 6 },
  { name: 'invalid params', input: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { arguments: 'nope' } }, code: -32602, id: 7 },
  { name: 'a response to an unknown id', input: { jsonrpc: '2.0', id: 999, result: {} }, code: null },
  { name: 'an error response to an unknown id', input: { jsonrpc: '2.0', id: 998, error: { code: -32603, message: 'x' } }, code: null },
  { name: 'a response with both result and error', input: { jsonrpc: '2.0', id: 997, result: {}, error: { code: 1, message: 'x' } }, code: null },
];

describe('Session bad input', () => {
  it.each(cases)('answers $name with $code (or drops it) and keeps operating', async ({ input, code, id }) => {
    const { peer, server, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/call', () => ({ content: [] }));
    await initialize();
    const before = peer.received.length;
    await peer.send(input as never);
    await flush();
    const replies = peer.received.slice(before);
    if (code === null) {
      expect(replies).toEqual([]);
    } else {
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({ jsonrpc: '2.0', error: { code } });
      if (id === undefined) expect(replies[0]).toHaveProperty('id', null);
      else expect(replies[0]).toHaveProperty('id', id);
    }
    expect(server.state.kind).toBe('operating');
    await peer.send({ jsonrpc: '2.0', id: 'after', method: 'ping' });
    await flush();
    expect(peer.response('after')).toMatchObject({ result: {} });
  });

  it('answers unparseable text with -32700 and keeps going', async () => {
    const { peer, serverTransport, server, initialize } = await serverWithRawClient();
    await initialize();
    serverTransport.injectMalformed('{oops');
    await flush();
    expect(peer.received.at(-1)).toMatchObject({ error: { code: -32700 } });
    expect(server.state.kind).toBe('operating');
  });

  it('rejects a duplicate in-flight request id with -32600', async () => {
    const { peer, server, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/call', () => new Promise(() => {}));
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } });
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'b' } });
    await flush();
    expect(peer.response(1)).toMatchObject({ error: { code: -32600 } });
  });

  it('answers a handler that returns a non-object with -32603', async () => {
    const { peer, server, initialize } = await serverWithRawClient();
    server.setRequestHandler('tools/call', () => 'oops' as never);
    await initialize();
    await peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a' } });
    await flush();
    expect(peer.response(1)).toMatchObject({ error: { code: -32603 } });
  });
});
