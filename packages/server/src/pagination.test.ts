import { ErrorCode } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor, paginate } from './pagination.js';

describe('paginate', () => {
  it('returns everything without nextCursor when it fits', () => {
    expect(paginate([1, 2], undefined, 5, 0)).toEqual({ items: [1, 2] });
    expect(paginate([1, 2, 3], undefined, Infinity, 0)).toEqual({ items: [1, 2, 3] });
  });

  it('walks pages with cursors', () => {
    const first = paginate([1, 2, 3, 4, 5], undefined, 2, 7);
    expect(first.items).toEqual([1, 2]);
    const second = paginate([1, 2, 3, 4, 5], first.nextCursor, 2, 7);
    expect(second.items).toEqual([3, 4]);
    expect(paginate([1, 2, 3, 4, 5], second.nextCursor, 2, 7)).toEqual({ items: [5] });
  });

  it.each(['', '!!', encodeCursor(-1, 0), Buffer.from('{"o":"x","g":0}').toString('base64url'), Buffer.from('null').toString('base64url'), encodeCursor(99, 0)])(
    'refuses the invalid cursor %j with -32602',
    (cursor) => {
      expect(() => paginate([1], cursor, 1, 0)).toThrow(expect.objectContaining({ code: ErrorCode.InvalidParams }));
    },
  );

  it('refuses a cursor from another generation', () => {
    expect(decodeCursor(encodeCursor(1, 3), 3)).toBe(1);
    expect(() => decodeCursor(encodeCursor(1, 3), 4)).toThrow(/list changed/);
  });
});
