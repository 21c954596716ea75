import { describe, expect, it } from 'vitest';
import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  describe('#match', () => {
    it('matches variables named like Object.prototype members as ordinary variables', () => {
      expect({ ...UriTemplate.forMatching('test://{constructor}/{__proto__}{?toString}').match('test://a/b?toString=c') }).toEqual(
        JSON.parse('{"constructor":"a","__proto__":"b","toString":"c"}'),
      );
      expect({ ...UriTemplate.forMatching('test://x{?toString,hasOwnProperty}').match('test://x?hasOwnProperty=1') }).toEqual({ hasOwnProperty: '1' });
    });
  });
});
