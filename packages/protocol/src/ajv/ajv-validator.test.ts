import { describe, expect, it, vi } from 'vitest';
import { defaultJsonSchemaValidator } from '../json-schema/validator.js';
import { createAjvValidator } from './ajv-validator.js';

/** Ajv generates code for each engine and schema on first use, slow on a loaded machine. */
vi.setConfig({ testTimeout: 30_000 });

describe('createAjvValidator', () => {
  describe('#compile', () => {
    it('asserts ajv-formats formats such as email, date-time and uuid', () => {
      const check = createAjvValidator().compile({
        type: 'object',
        properties: { email: { type: 'string', format: 'email' }, at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' } },
        required: ['email'],
      });
      expect(check({ email: 'ada@example.com', at: '2026-11-25T12:00:00Z', id: '6f1c8a52-3b8e-4a53-9d0e-2f0b2c7d9e11' })).toBeUndefined();
      expect(check({ email: 'not an address' })).toBe('#/email: must match format "email"');
      expect(check({ email: 'ada@example.com', at: 'yesterday' })).toMatch(/^#\/at: must match format "date-time"/);
      expect(check({})).toMatch(/must have required property 'email'/);
    });

    it('leaves formats unchecked when formats is false', () => {
      const check = createAjvValidator({ formats: false }).compile({ type: 'object', properties: { email: { type: 'string', format: 'email' } } });
      expect(check({ email: 'not an address' })).toBeUndefined();
    });

    it('follows $schema: 2020-12 by default, draft-07 and 2019-09 when named', () => {
      const validator = createAjvValidator();
      const modern = validator.compile({ type: 'object', properties: { at: { type: 'array', prefixItems: [{ type: 'number' }], items: false } } });
      expect(modern({ at: [1] })).toBeUndefined();
      expect(modern({ at: [1, 2] })).toMatch(/^#\/at/);
      const draft7 = validator.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } });
      expect(draft7({ n: 1.5 })).toBe('#/n: must be integer');
      const draft2019 = validator.compile({ $schema: 'https://json-schema.org/draft/2019-09/schema', type: 'object', properties: { n: { type: 'integer' } } });
      expect(draft2019({ n: 2 })).toBeUndefined();
    });

    it('fails every value with a reason for draft-04, an unknown dialect or a broken schema', () => {
      const validator = createAjvValidator();
      expect(validator.compile({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' })({})).toMatch(/unsupported JSON Schema dialect/);
      expect(validator.compile({ $schema: 'https://example.com/dialect', type: 'object' })({})).toMatch(/unsupported JSON Schema dialect/);
      expect(validator.compile({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } })({})).toMatch(/could not be compiled/);
    });

    it('compiles frozen schemas with the same $id twice without touching them', () => {
      const schema = Object.freeze({ $id: 'https://example.com/point', type: 'object', required: Object.freeze(['x']) });
      const validator = createAjvValidator();
      expect(validator.compile(schema)({ x: 1 })).toBeUndefined();
      expect(validator.compile(schema)({})).toMatch(/'x'/);
      expect(Object.keys(schema)).toEqual(['$id', 'type', 'required']);
    });

    it('hands each new Ajv instance to configure', () => {
      const seen: unknown[] = [];
      const validator = createAjvValidator({ configure: (ajv) => seen.push(ajv.addFormat('even-digits', /^(\d\d)+$/)) });
      const check = validator.compile({ type: 'string', format: 'even-digits' });
      expect(check('1234')).toBeUndefined();
      expect(check('123')).toBe('#: must match format "even-digits"');
      expect(seen).toHaveLength(1);
    });
  });
});

describe('defaultJsonSchemaValidator', () => {
  it('compiles with the built-in engine', () => {
    expect(defaultJsonSchemaValidator.compile({ type: 'object', required: ['city'] })({})).toMatch(/city/);
  });
});
