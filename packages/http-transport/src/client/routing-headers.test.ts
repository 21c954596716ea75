import { describe, expect, it } from 'vitest';
import type { JsonObject, JsonRpcMessage } from '@statemcp/protocol';
import { encodeHeaderValue } from '@statemcp/protocol/internal';
import { ToolParamHeaders, routedVersion } from './routing-headers.js';

const modernMeta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const call = (name: string, args: JsonObject): JsonRpcMessage => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: modernMeta } });
const tool = (name: string, properties: JsonObject, extra: JsonObject = {}): JsonObject => ({ name, inputSchema: { type: 'object', properties, ...extra } });

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

  describe('ToolParamHeaders', () => {
    it('mirrors annotated arguments into Mcp-Param-* headers and omits null or absent ones', () => {
      const headers = new ToolParamHeaders();
      const listed = headers.screen(
        {
          tools: [
            tool('weather', {
              region: { type: 'string', 'x-mcp-header': 'Region' },
              priority: { type: 'integer', 'x-mcp-header': 'Priority' },
              urgent: { type: 'boolean', 'x-mcp-header': 'Urgent' },
              note: { type: 'string', 'x-mcp-header': 'Note' },
              nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
            }),
          ],
        },
        () => undefined,
      );
      expect(listed.tools).toHaveLength(1);
      expect(headers.headersFor(call('weather', { region: 'Zürich', priority: 42, urgent: false, note: null, nested: { zone: 'b' } }), '2026-07-28')).toEqual({
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'weather',
        'mcp-param-region': '=?base64?WsO8cmljaA==?=',
        'mcp-param-priority': '42',
        'mcp-param-urgent': 'false',
        'mcp-param-zone': 'b',
      });
    });

    it('names resources by uri and prompts by name', () => {
      const headers = new ToolParamHeaders();
      const read: JsonRpcMessage = { jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///ä', _meta: modernMeta } };
      expect(headers.headersFor(read, '2026-07-28')['mcp-name']).toBe(encodeHeaderValue('file:///ä'));
      const list: JsonRpcMessage = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: modernMeta } };
      expect(headers.headersFor(list, '2026-07-28')).toEqual({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' });
    });

    it('leaves out tools whose annotations break the rules, saying why', () => {
      const dropped: string[] = [];
      const headers = new ToolParamHeaders();
      const result = headers.screen(
        {
          tools: [
            tool('valid_tool', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
            tool('empty', { a: { type: 'string', 'x-mcp-header': '' } }),
            tool('bad_chars', { a: { type: 'string', 'x-mcp-header': 'Bad Name' } }),
            tool('number', { a: { type: 'number', 'x-mcp-header': 'Amount' } }),
            tool('object', { a: { type: 'object', 'x-mcp-header': 'Obj' } }),
            tool('duplicate', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dup' } }),
            tool('in_items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
            tool('in_defs', {}, { $defs: { x: { type: 'string', 'x-mcp-header': 'Def' } } }),
          ],
        },
        (name) => dropped.push(name),
      );
      expect((result.tools as JsonObject[]).map((t) => t.name)).toEqual(['valid_tool']);
      expect(dropped).toEqual(['empty', 'bad_chars', 'number', 'object', 'duplicate', 'in_items', 'in_defs']);
    });
  });
});
