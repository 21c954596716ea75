import { describe, expect, it } from 'vitest';
import { DeclaredCapabilities } from './declared-capabilities.js';

describe('DeclaredCapabilities', () => {
  describe('#share', () => {
    it('hands every handshake that declares the same capabilities one frozen copy', () => {
      const declared = new DeclaredCapabilities();
      const first = declared.share({ logging: {}, tools: { listChanged: true }, experimental: { 'x/y': { modes: ['a', 'b'] } } });
      const second = declared.share({ logging: {}, tools: { listChanged: true }, experimental: { 'x/y': { modes: ['a', 'b'] } } });
      expect(second).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      expect(Object.isFrozen(first.tools)).toBe(true);
      expect(Object.isFrozen((first.experimental as Record<string, { modes: string[] }>)['x/y']?.modes)).toBe(true);
    });

    it('copies again when a value, a key or the key order differs, and shares the new copy from then on', () => {
      const declared = new DeclaredCapabilities();
      const source = { logging: {}, tools: { listChanged: true } };
      const first = declared.share(source);
      expect(first).not.toBe(source);
      source.tools.listChanged = false; // the caller's object changed after it was shared
      const changed = declared.share(source);
      expect(changed).not.toBe(first);
      expect(changed).toEqual({ logging: {}, tools: { listChanged: false } });
      expect(first).toEqual({ logging: {}, tools: { listChanged: true } });
      const reordered = declared.share({ tools: { listChanged: false }, logging: {} });
      expect(reordered).not.toBe(changed);
      expect(Object.keys(reordered)).toEqual(['tools', 'logging']);
      expect(declared.share({ tools: { listChanged: false }, logging: {}, prompts: {} })).not.toBe(reordered);
      expect(declared.share({ tools: { listChanged: false }, logging: {}, prompts: {} })).toEqual({ tools: { listChanged: false }, logging: {}, prompts: {} });
    });

    it('never shares a copy of something that is not plain JSON data', () => {
      const declared = new DeclaredCapabilities();
      const at = new Date(0);
      const first = declared.share({ experimental: { 'x/y': { since: at } } });
      expect(declared.share({ experimental: { 'x/y': { since: at } } })).not.toBe(first);
      const list = declared.share({ experimental: { 'x/y': { modes: ['a'] } } });
      expect(declared.share({ experimental: { 'x/y': { modes: { 0: 'a' } } } })).not.toBe(list);
    });
  });
});
