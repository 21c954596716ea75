import { describe, expect, it } from 'vitest';
import { annotatedParams, checkParamHeaders } from './param-headers.js';

const params = annotatedParams({ type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, count: { type: 'integer', 'x-mcp-header': 'Count' }, plain: { type: 'string' } } });

describe('checkParamHeaders', () => {
  it('accepts headers that match the arguments, decoding base64 and comparing integers numerically', () => {
    expect(() => checkParamHeaders(params, { region: 'Hello', count: 42 }, { 'mcp-param-region': '=?base64?SGVsbG8=?=', 'mcp-param-count': '42.0' }, '2026-07-28')).not.toThrow();
  });

  it('rejects a mismatch, a bad base64 value and a missing header with -32020', () => {
    const check = (headers: Record<string, string>) => () => checkParamHeaders(params, { region: 'Hello', count: 1 }, { 'mcp-param-count': '1', ...headers }, '2026-07-28');
    expect(check({ 'mcp-param-region': 'other' })).toThrow(expect.objectContaining({ code: -32020 }));
    expect(check({ 'mcp-param-region': '=?base64?SGVsbG8?=' })).toThrow(expect.objectContaining({ code: -32020 }));
    expect(check({})).toThrow(expect.objectContaining({ code: -32020 }));
  });

  it('expects no header for an absent or null argument, and checks nothing before 2026-07-28', () => {
    expect(() => checkParamHeaders(params, { region: null }, {}, '2026-07-28')).not.toThrow();
    expect(() => checkParamHeaders(params, {}, { 'mcp-param-region': 'x' }, '2026-07-28')).toThrow(expect.objectContaining({ code: -32020 }));
    expect(() => checkParamHeaders(params, { region: 'a' }, {}, '2025-11-25')).not.toThrow();
  });
});
