import { describe, expect, it } from 'vitest';
import type { JsonRpcRequest } from '../jsonrpc/messages.js';
import { CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, PROTOCOL_VERSION_META_KEY } from '../revisions/blocks/modern.js';
import { requestIdentity, stampRequestMeta } from './request-meta.js';

const caps = { sampling: {} };
const info = { name: 'client', version: '1.0.0' };
const sealedIdentity = () => requestIdentity(requestIdentity(undefined, '2026-07-28', caps, info), '2026-07-28', caps, info);
const call = (): JsonRpcRequest => ({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } });

describe('stampRequestMeta', () => {
  it('returns the message itself when there is nothing to add (legacy era, no progress)', () => {
    const message = call();
    expect(stampRequestMeta(message, undefined, undefined)).toBe(message);
  });

  it('writes a new message of the four request members and leaves the unstamped one as it was', () => {
    const message = call();
    const identity = sealedIdentity();
    const stamped = stampRequestMeta(message, undefined, identity);
    expect(Object.keys(stamped)).toEqual(['jsonrpc', 'id', 'method', 'params']);
    expect(JSON.stringify(stamped)).toBe(
      JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: identity.meta } }),
    );
    expect(stamped.params?._meta).toBe(identity.meta);
    expect(message).toEqual(call());
  });

  it('keeps the caller’s own _meta keys, lets the protocol’s win, and adds the progress token', () => {
    const message: JsonRpcRequest = { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'echo', _meta: { custom: 1, [PROTOCOL_VERSION_META_KEY]: 'spoofed' } } };
    const stamped = stampRequestMeta(message, 'a', sealedIdentity());
    expect(stamped.params?._meta).toEqual({ custom: 1, [PROTOCOL_VERSION_META_KEY]: '2026-07-28', [CLIENT_CAPABILITIES_META_KEY]: caps, [CLIENT_INFO_META_KEY]: info, progressToken: 'a' });
    expect(message.params?._meta).toEqual({ custom: 1, [PROTOCOL_VERSION_META_KEY]: 'spoofed' });
  });

  it('stamps a request without params (legacy era, progress only)', () => {
    const stamped = stampRequestMeta({ jsonrpc: '2.0', id: 1, method: 'ping' }, 1, undefined);
    expect(stamped).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { progressToken: 1 } } });
  });
});
