import { describe, expect, it } from 'vitest';
import { decodeBase64UrlJson, encodeBase64UrlJson } from './base64url-json.js';

describe('base64url JSON', () => {
  it('matches the base64url of the UTF-8 JSON, without padding', () => {
    const value = { o: 40, g: 3, label: 'é ✓ >>> ???' };
    const encoded = encodeBase64UrlJson(value);
    expect(encoded).toBe(Buffer.from(JSON.stringify(value), 'utf8').toString('base64url'));
    expect(encoded).not.toMatch(/[+/=]/);
    expect(decodeBase64UrlJson(encoded)).toEqual(value);
  });

  it('throws on text that is not base64url of JSON', () => {
    expect(() => decodeBase64UrlJson('%%%')).toThrow();
    expect(() => decodeBase64UrlJson('bm90IGpzb24')).toThrow(SyntaxError);
    expect(() => decodeBase64UrlJson('_w')).toThrow();
  });
});
