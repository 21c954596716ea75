import { JsonRpcError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { applyFormDefaults, assertDeclaredMode, modeOf } from './elicitation.js';
import type { ElicitRequestParams } from './types.js';

const form: ElicitRequestParams = {
  message: 'Who are you?',
  requestedSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', default: 'John Doe' },
      tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, default: ['a'] },
      note: { type: 'string' },
    },
  },
};
const url: ElicitRequestParams = { mode: 'url', message: 'Sign in', elicitationId: 'e', url: 'https://example.com' };

describe('applyFormDefaults', () => {
  it('adds defaults for missing fields of an accepted form', () => {
    expect(applyFormDefaults(form, { action: 'accept' })).toEqual({ action: 'accept', content: { name: 'John Doe', tags: ['a'] } });
  });

  it('keeps given values, including falsy ones', () => {
    expect(applyFormDefaults(form, { action: 'accept', content: { name: '' } })).toEqual({ action: 'accept', content: { name: '', tags: ['a'] } });
  });

  it('returns a copy of array defaults, never the schema object itself', () => {
    const result = applyFormDefaults(form, { action: 'accept', content: {} });
    const schemaDefault = (form as unknown as { requestedSchema: { properties: { tags: { default: string[] } } } }).requestedSchema.properties.tags.default;
    expect(result.content?.tags).not.toBe(schemaDefault);
  });

  it('leaves decline, cancel and URL mode unchanged', () => {
    const decline = { action: 'decline' as const };
    expect(applyFormDefaults(form, decline)).toBe(decline);
    const accepted = { action: 'accept' as const };
    expect(applyFormDefaults(url, accepted)).toBe(accepted);
  });
});

describe('assertDeclaredMode', () => {
  it('treats an empty elicitation capability as form only', () => {
    expect(() => assertDeclaredMode(form, { elicitation: {} })).not.toThrow();
    expect(() => assertDeclaredMode(url, { elicitation: {} })).toThrow(JsonRpcError);
  });

  it('throws a -32602 JsonRpcError for an undeclared mode', () => {
    expect(() => assertDeclaredMode(form, { elicitation: { url: {} } })).toThrow(expect.objectContaining({ code: -32602 }));
    expect(() => assertDeclaredMode(url, { elicitation: { form: {}, url: {} } })).not.toThrow();
  });
});

describe('modeOf', () => {
  it('reads a missing mode as form', () => {
    expect(modeOf(form)).toBe('form');
    expect(modeOf(url)).toBe('url');
  });
});
