import { describe, expect, it } from 'vitest';
import { compileJsonSchema, jsonSchemaDialect } from './validator.js';

describe('jsonSchemaDialect', () => {
  it('defaults to 2020-12 and recognises the other drafts, with or without a trailing #', () => {
    expect(jsonSchemaDialect(undefined)).toBe('2020-12');
    expect(jsonSchemaDialect('https://json-schema.org/draft/2020-12/schema')).toBe('2020-12');
    expect(jsonSchemaDialect('http://json-schema.org/draft-07/schema#')).toBe('7');
    expect(jsonSchemaDialect('https://json-schema.org/draft/2019-09/schema')).toBe('2019-09');
    expect(jsonSchemaDialect('https://example.com/my-dialect')).toBeUndefined();
  });
});

describe('compileJsonSchema', () => {
  it('checks 2020-12 keywords such as $defs and prefixItems', () => {
    const check = compileJsonSchema({
      type: 'object',
      $defs: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
      properties: { at: { $ref: '#/$defs/point' } },
      required: ['at'],
    });
    expect(check({ at: [1, 2] })).toBeUndefined();
    expect(check({ at: [1, 2, 3] })).toMatch(/at/);
    expect(check({})).toMatch(/at/);
  });

  it('follows a draft-07 $schema', () => {
    const check = compileJsonSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } });
    expect(check({ n: 1.5 })).toMatch(/\/n/);
  });

  it('fails every value with a clear reason for an unknown dialect', () => {
    expect(compileJsonSchema({ $schema: 'https://example.com/dialect', type: 'object' })({})).toMatch(/unsupported JSON Schema dialect/);
  });
});

describe('compileJsonSchema with frozen input', () => {
  it('compiles a frozen schema and leaves it untouched', () => {
    const schema = Object.freeze({ type: 'object', properties: Object.freeze({ city: Object.freeze({ type: 'string' }) }), required: Object.freeze(['city']) });
    const check = compileJsonSchema(schema);
    expect(check({ city: 'Paris' })).toBeUndefined();
    expect(check({ city: 1 })).toMatch(/city/);
    expect(Object.keys(schema)).toEqual(['type', 'properties', 'required']);
  });
});
