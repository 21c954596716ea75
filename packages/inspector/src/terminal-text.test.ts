import { describe, expect, it } from 'vitest';
import { terminalText } from './terminal-text.js';

/** Every character a terminal acts on or that reorders text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('terminalText', () => {
  it('shows an OSC title change and a screen clear as visible text', () => {
    expect(terminalText('srv\x1b]0;pwned\x07\x1b[2J')).toBe('srv\\x1b]0;pwned\\x07\\x1b[2J');
  });

  it('escapes every C0 control, DEL and every C1 control (U+009B is a one-character CSI)', () => {
    const all = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).join('') + '\x7f' + Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(0x80 + code)).join('');
    const safe = terminalText(all);
    expect(safe).not.toMatch(UNSAFE);
    expect(safe.startsWith('\\x00\\x01')).toBe(true);
    expect(safe).toContain('\\x9b');
  });

  it('escapes the bidirectional overrides, embeddings, isolates and marks', () => {
    const bidi = '\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c';
    expect(terminalText(`a${bidi}b`)).toBe('a\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069\\u200e\\u200f\\u061cb');
  });

  it('keeps tab and line feed only when asked to, and never a carriage return', () => {
    expect(terminalText('a\tb\nc\rd')).toBe('a\\x09b\\x0ac\\x0dd');
    expect(terminalText('a\tb\nc\rd', { keepLines: true })).toBe('a\tb\nc\\x0dd');
  });

  it('leaves printable text, including non-Latin scripts and emoji, as it is', () => {
    const text = 'weather-server 1.2.0 — Überblick 天気 🌦';
    expect(terminalText(text)).toBe(text);
  });
});
