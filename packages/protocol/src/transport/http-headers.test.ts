import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue, nameParamOf } from './http-headers.js';

describe('decodeHeaderValue', () => {
  it('decodes a base64 sentinel value as UTF-8', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue(encodeHeaderValue('日本語'))).toBe('日本語');
  });

  it('treats a value without both markers as literal and trims surrounding whitespace', () => {
    expect(decodeHeaderValue('  us-west1 ')).toBe('us-west1');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('SGVsbG8=')).toBe('SGVsbG8=');
  });

  it('rejects bad padding, bad characters and control characters', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeUndefined();
    expect(decodeHeaderValue('a\u0001b')).toBeUndefined();
  });
});

describe('encodeHeaderValue', () => {
  it('keeps plain ASCII and wraps everything else', () => {
    expect(encodeHeaderValue('us-west1')).toBe('us-west1');
    expect(encodeHeaderValue(' padded')).toBe(`=?base64?${btoa(' padded')}?=`);
    expect(encodeHeaderValue('=?base64?x?=')).toMatch(/^=\?base64\?.+\?=$/);
  });
});

describe('encodeHeaderValue edge cases', () => {
  it('keeps the empty value and inner spaces, wraps a value starting like the sentinel in any case', () => {
    expect(encodeHeaderValue('')).toBe('');
    expect(encodeHeaderValue('a b')).toBe('a b');
    expect(encodeHeaderValue('=?base64?abc')).toBe(`=?base64?${btoa('=?base64?abc')}?=`);
    expect(encodeHeaderValue('=?BASE64?abc?=')).toBe(`=?base64?${btoa('=?BASE64?abc?=')}?=`);
    for (const value of ['', 'a b', '=?base64?abc', '=?BASE64?abc?=', 'Zürich', '\ttab']) expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
  });
});

describe('nameParamOf', () => {
  it('names the param Mcp-Name mirrors', () => {
    expect(nameParamOf('tools/call')).toBe('name');
    expect(nameParamOf('resources/read')).toBe('uri');
    expect(nameParamOf('tasks/update')).toBe('taskId');
    expect(nameParamOf('tools/list')).toBeUndefined();
  });
});
