import { describe, expect, it } from 'vitest';
import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  describe('#match', () => {
    it.each([
      ['test://template/{id}/data', 'test://template/123/data', { id: '123' }],
      ['file:///{dir}/{name}.txt', 'file:///docs/readme.txt', { dir: 'docs', name: 'readme' }],
      ['users://{user}', 'users://a%20b', { user: 'a b' }],
      ['static://plain', 'static://plain', {}],
    ])('matches %s against %s', (template, uri, expected) => {
      expect(new UriTemplate(template).match(uri)).toEqual(expected);
    });

    it.each([
      ['test://template/{id}/data', 'test://template/1/2/data'],
      ['test://template/{id}/data', 'test://template//data'],
      ['test://template/{id}/data', 'test://template/1/data?x=1'],
      ['test://a.b/{id}', 'test://aXb/1'],
      ['users://{user}', 'users://%E0%A4%A'],
    ])('does not match %s against %s', (template, uri) => {
      expect(new UriTemplate(template).match(uri)).toBeUndefined();
    });
  });

  describe('#expand', () => {
    it('percent-encodes everything but unreserved characters', () => {
      expect(new UriTemplate('test://x/{a}/{b}').expand({ a: 'a b/c', b: "it's" })).toBe('test://x/a%20b%2Fc/it%27s');
      expect(new UriTemplate('test://x/{a}').expand({})).toBe('test://x/');
    });
  });

  describe('constructor', () => {
    it.each(['test://{+path}', 'test://{?q}', 'test://{a,b}', 'test://{a*}', 'test://{a', 'test://a}', 'test://{a}/{a}'])('refuses %s', (template) => {
      expect(() => new UriTemplate(template)).toThrow(TypeError);
    });

    it('lists variable names', () => {
      expect(new UriTemplate('t://{a}/{b_2}').variableNames).toEqual(['a', 'b_2']);
      expect(new UriTemplate('t://plain').isLiteral).toBe(true);
    });
  });
});
