import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonRpcMessage } from '@statemcp/protocol';
import { encodeHeaderValue } from '@statemcp/protocol/internal';
import { routedVersion, routingHeaders } from './routing-headers.js';

const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (name: string, args: JsonObject): JsonRpcMessage => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: modernMeta } });

describe('routing headers (MCP 2026-07-28 basic/transports/streamable-http)', () => {
  describe('routedVersion', () => {
    it('is the _meta version of a request whose revision has routing headers, else undefined', () => {
      expect(routedVersion(call('t', {}))).toBe('2026-07-28');
      expect(routedVersion({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2025-11-25' } } })).toBeUndefined();
      expect(routedVersion({ jsonrpc: '2.0', id: 1, method: 'initialize' })).toBeUndefined();
    });
  });

  describe('encodeHeaderValue', () => {
    it('keeps safe ASCII plain and wraps everything else in the base64 sentinel', () => {
      expect(encodeHeaderValue('us-west1')).toBe('us-west1');
      expect(encodeHeaderValue('a b')).toBe('a b');
      expect(encodeHeaderValue('')).toBe('');
      expect(encodeHeaderValue('Zürich')).toBe('=?base64?WsO8cmljaA==?=');
      expect(encodeHeaderValue(' padded')).toBe(`=?base64?${btoa(' padded')}?=`);
      expect(encodeHeaderValue('line\nbreak')).toBe(`=?base64?${btoa('line\nbreak')}?=`);
      expect(encodeHeaderValue('=?base64?abc?=')).toBe(`=?base64?${btoa('=?base64?abc?=')}?=`);
    });
  });

  describe('routingHeaders', () => {
    it('names a tool call by name, a resource by uri, and a list by its method alone', () => {
      expect(routingHeaders(call('weather', { region: 'x' }), '2026-07-28')).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'weather' });
      const read: JsonRpcMessage = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///ä', _meta: modernMeta } };
      expect(routingHeaders(read, '2026-07-28')['mcp-name']).toBe(encodeHeaderValue('file:///ä'));
      const list: JsonRpcMessage = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta } };
      expect(routingHeaders(list, '2026-07-28')).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    });
  });
});
