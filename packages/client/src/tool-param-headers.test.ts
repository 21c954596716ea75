import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@statemcp/protocol';
import { ToolParamHeaders } from './tool-param-headers.js';
import type { Tool } from './types.js';

const tool = (name: string, properties: JsonObject, extra: JsonObject = {}): Tool => ({ name, inputSchema: { type: 'object', properties, ...extra } }) as Tool;

describe('ToolParamHeaders (MCP 2026-07-28 Transports §Streamable HTTP, x-mcp-header)', () => {
  it('mirrors annotated arguments into Mcp-Param-* headers and omits null or absent ones', () => {
    const headers = new ToolParamHeaders();
    const weather = tool('weather', {
      region: { type: 'string', 'x-mcp-header': 'Region' },
      priority: { type: 'integer', 'x-mcp-header': 'Priority' },
      urgent: { type: 'boolean', 'x-mcp-header': 'Urgent' },
      note: { type: 'string', 'x-mcp-header': 'Note' },
      nested: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Zone' } } },
    });
    const tools = [weather];
    expect(headers.screen(tools, () => undefined)).toBe(tools);
    expect(headers.headersFor('weather', { region: 'Zürich', priority: 42, urgent: false, note: null, nested: { zone: 'b' } })).toEqual({
      'mcp-param-region': '=?base64?WsO8cmljaA==?=',
      'mcp-param-priority': '42',
      'mcp-param-urgent': 'false',
      'mcp-param-zone': 'b',
    });
    expect(headers.headersFor('weather', {})).toBeUndefined();
    expect(headers.headersFor('unlisted', { region: 'x' })).toBeUndefined();
  });

  it('reads argument values from own members only', () => {
    const headers = new ToolParamHeaders();
    headers.screen([tool('t', { toString: { type: 'string', 'x-mcp-header': 'S' } })], () => undefined);
    expect(headers.headersFor('t', {})).toBeUndefined();
  });

  it('leaves out tools whose annotations break the rules, saying why', () => {
    const dropped: string[] = [];
    const headers = new ToolParamHeaders();
    const kept = headers.screen(
      [
        tool('valid_tool', { region: { type: 'string', 'x-mcp-header': 'Region' } }),
        tool('empty', { a: { type: 'string', 'x-mcp-header': '' } }),
        tool('bad_chars', { a: { type: 'string', 'x-mcp-header': 'Bad Name' } }),
        tool('number', { a: { type: 'number', 'x-mcp-header': 'Amount' } }),
        tool('object', { a: { type: 'object', 'x-mcp-header': 'Obj' } }),
        tool('duplicate', { a: { type: 'string', 'x-mcp-header': 'Dup' }, b: { type: 'string', 'x-mcp-header': 'dup' } }),
        tool('in_items', { a: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }),
        tool('in_defs', {}, { $defs: { x: { type: 'string', 'x-mcp-header': 'Def' } } }),
        tool('plain', { a: { type: 'string' } }),
      ],
      (name) => dropped.push(name),
    );
    expect(kept.map((t) => t.name)).toEqual(['valid_tool', 'plain']);
    expect(dropped).toEqual(['empty', 'bad_chars', 'number', 'object', 'duplicate', 'in_items', 'in_defs']);
  });

  it('forgets a tool that a later listing shows broken', () => {
    const headers = new ToolParamHeaders();
    headers.screen([tool('t', { a: { type: 'string', 'x-mcp-header': 'A' } })], () => undefined);
    expect(headers.headersFor('t', { a: 'x' })).toEqual({ 'mcp-param-a': 'x' });
    headers.screen([tool('t', { a: { type: 'number', 'x-mcp-header': 'A' } })], () => undefined);
    expect(headers.headersFor('t', { a: 'x' })).toBeUndefined();
  });
});
