import { describe, expect, it } from 'vitest';
import { decodeHeaderValue, encodeHeaderValue } from './header-values.js';

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
