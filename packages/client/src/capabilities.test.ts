import { describe, expect, it } from 'vitest';
import { buildCapabilities, elicitationModes } from './capabilities.js';

describe('buildCapabilities', () => {
  it('declares nothing without handlers or options', () => {
    expect(buildCapabilities(undefined, { roots: false })).toEqual({});
  });

  it('adds what handlers imply on top of declared capabilities, without removing any', () => {
    const declared = { sampling: { context: {} }, experimental: { x: {} } };
    const built = buildCapabilities(declared, { sampling: { tools: true }, elicitation: {}, roots: true });
    expect(built).toEqual({ sampling: { context: {}, tools: {} }, experimental: { x: {} }, elicitation: { form: {} }, roots: { listChanged: true } });
    expect(declared).toEqual({ sampling: { context: {} }, experimental: { x: {} } });
  });

  it('declares URL mode only when asked, and form mode unless turned off', () => {
    expect(buildCapabilities({}, { elicitation: { url: true }, roots: false }).elicitation).toEqual({ form: {}, url: {} });
    expect(buildCapabilities({}, { elicitation: { form: false, url: true }, roots: false }).elicitation).toEqual({ url: {} });
  });
});

describe('elicitationModes', () => {
  it('reads {} as form only and a missing capability as none', () => {
    expect(elicitationModes({ elicitation: {} })).toEqual({ form: true, url: false });
    expect(elicitationModes({})).toEqual({ form: false, url: false });
    expect(elicitationModes({ elicitation: { url: {} } })).toEqual({ form: false, url: true });
  });
});
