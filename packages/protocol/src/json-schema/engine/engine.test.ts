import { describe, expect, it } from 'vitest';
import { loadValidator as loadOnNode } from './node.js';
import { loadValidator as loadPortable } from './portable.js';

describe('the JSON Schema engine variants', () => {
  it('load the same engine once, which validates under each draft', () => {
    expect(loadOnNode()).toBe(loadOnNode());
    for (const load of [loadOnNode, loadPortable]) {
      const Validator = load();
      const validator = new Validator({ type: 'object', required: ['city'] }, '2020-12', false);
      expect(validator.validate({ city: 'Paris' }).valid).toBe(true);
      expect(validator.validate({}).valid).toBe(false);
    }
  });
});
