import { describe, expect, it } from 'vitest';
import { extensionSettings, isExtensionId, withExtension } from './extensions.js';

const UI = 'io.modelcontextprotocol/ui';

describe('extensionSettings', () => {
  it('reads extensions[id], falls back to experimental[id], and is undefined otherwise', () => {
    expect(extensionSettings({ extensions: { [UI]: { mimeTypes: ['text/html;profile=mcp-app'] } } }, UI)).toEqual({ mimeTypes: ['text/html;profile=mcp-app'] });
    expect(extensionSettings({ experimental: { [UI]: {} } }, UI)).toEqual({});
    expect(extensionSettings({ extensions: { [UI]: true } }, UI)).toBeUndefined();
    expect(extensionSettings({ extensions: { other: {} } }, UI)).toBeUndefined();
    expect(extensionSettings(undefined, UI)).toBeUndefined();
  });
});

describe('withExtension', () => {
  it('adds the extension beside those already declared, leaving the input untouched', () => {
    const base = { roots: {}, extensions: { 'io.example/a': {} } };
    expect(withExtension(base, UI, { mimeTypes: ['x'] })).toEqual({ roots: {}, extensions: { 'io.example/a': {}, [UI]: { mimeTypes: ['x'] } } });
    expect(base.extensions).toEqual({ 'io.example/a': {} });
  });

  it('refuses an id without a prefix', () => {
    expect(isExtensionId('ui')).toBe(false);
    expect(() => withExtension({}, 'ui')).toThrow(TypeError);
  });
});
