import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { classifyMessage, errorResponse, parseJson, requestOf, resultOf } from './messages.js';

describe('classifyMessage', () => {
  it('classifies requests, notifications, results and errors', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, method: 'ping' }).kind).toBe('request');
    expect(classifyMessage({ jsonrpc: '2.0', id: 'a', method: 'x', params: {} }).kind).toBe('request');
    expect(classifyMessage({ jsonrpc: '2.0', method: 'notifications/x' }).kind).toBe('notification');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: {} }).kind).toBe('result');
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } }).kind).toBe('error');
    expect(classifyMessage({ jsonrpc: '2.0', error: { code: -32700, message: 'x' } }).kind).toBe('error');
    expect(classifyMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'x' } }).kind).toBe('error');
    expect(classifyMessage([]).kind).toBe('batch');
  });

  it.each([
    ['null id', { jsonrpc: '2.0', id: null, method: 'x' }, undefined],
    ['object id', { jsonrpc: '2.0', id: {}, method: 'x' }, undefined],
    ['empty method', { jsonrpc: '2.0', id: 2, method: '' }, 2],
    ['string params', { jsonrpc: '2.0', id: 3, method: 'x', params: 'p' }, 3],
    ['missing jsonrpc', { id: 4, method: 'x' }, 4],
    ['nothing recognisable', { jsonrpc: '2.0', id: 5 }, 5],
  ])('rejects %s with -32600, keeping a readable id', (_name, value, id) => {
    const result = classifyMessage(value);
    expect(result).toMatchObject({ kind: 'invalid', code: -32600, id, reply: true });
  });

  it('drops malformed responses without a reply', () => {
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, result: 5 })).toMatchObject({ kind: 'invalid', reply: false });
    expect(classifyMessage({ jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'y' } })).toMatchObject({ kind: 'invalid', reply: false });
    expect(classifyMessage({ jsonrpc: '2.0', result: {} })).toMatchObject({ kind: 'invalid', reply: false });
  });
});

describe('parseJson', () => {
  it('returns -32700 for unparseable text and never throws', () => {
    expect(parseJson('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJson('{')).toMatchObject({ ok: false, code: -32700 });
  });
});

describe('errorResponse', () => {
  it('carries "id": null when the id could not be read (JSON-RPC 2.0 §5)', () => {
    expect(errorResponse(undefined, { code: -32700, message: 'Parse error' })).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(errorResponse(null, { code: -32600, message: 'Invalid request' })).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid request' } });
  });

  it('carries the id when it could be read', () => {
    expect(errorResponse(0, { code: -32602, message: 'Invalid params' })).toMatchObject({ id: 0 });
    expect(errorResponse('a', { code: -32602, message: 'Invalid params' })).toMatchObject({ id: 'a' });
  });
});

describe('the layer', () => {
  it('imports no other module, so classifying a message loads no revision schemas', () => {
    const source = readFileSync(new URL('./messages.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/^import\s/m);
  });
});

describe('resultOf', () => {
  it('reads the result of exactly the messages classifyMessage calls results', () => {
    const values: unknown[] = [
      { jsonrpc: '2.0', id: 1, result: {} },
      { jsonrpc: '2.0', id: 'a', result: { content: [] }, extra: true },
      { jsonrpc: '2.0', id: 1.5, result: {} },
      { jsonrpc: '2.0', id: null, result: {} },
      { jsonrpc: '2.0', result: {} },
      { jsonrpc: '1.0', id: 1, result: {} },
      { id: 1, result: {} },
      { jsonrpc: '2.0', id: 1, result: [] },
      { jsonrpc: '2.0', id: 1, result: null },
      { jsonrpc: '2.0', id: 1, result: 'text' },
      { jsonrpc: '2.0', id: 1, result: {}, error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', id: 1, result: {}, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, error: { code: -1, message: 'x' } },
      [{ jsonrpc: '2.0', id: 1, result: {} }],
      null,
      'text',
    ];
    for (const value of values) {
      const classified = classifyMessage(value);
      const result = resultOf(value);
      if (classified.kind === 'result') expect(result).toBe(classified.message.result);
      else expect(result).toBeUndefined();
    }
    expect(values.filter((value) => resultOf(value) !== undefined)).toHaveLength(2);
  });
});

describe('requestOf', () => {
  it('returns the copy classifyMessage makes of exactly the messages it calls requests', () => {
    const values: unknown[] = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } },
      { jsonrpc: '2.0', id: 'a', method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'ping', extra: true, result: {} },
      { jsonrpc: '2.0', id: 1.5, method: 'ping' },
      { jsonrpc: '2.0', id: null, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 1, method: '' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: null },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 1, result: {} },
      [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
      null,
      'text',
    ];
    for (const value of values) {
      const classified = classifyMessage(value);
      const request = requestOf(value);
      if (classified.kind === 'request') expect(request).toStrictEqual(classified.message);
      else expect(request).toBeUndefined();
    }
    expect(values.filter((value) => requestOf(value) !== undefined)).toHaveLength(3);
  });
});
