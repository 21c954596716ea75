import { describe, expect, it } from 'vitest';
import { batchRefusal, initializeInBatch, nestedBatch, requestIdInUse } from './envelope-rules.js';

describe('envelope rules', () => {
  it('word each refusal once, as -32600', () => {
    expect(requestIdInUse(7)).toEqual({ code: -32600, message: 'Invalid request: request id 7 is already in use' });
    expect(requestIdInUse('a')).toEqual({ code: -32600, message: 'Invalid request: request id "a" is already in use' });
    expect(initializeInBatch()).toEqual({ code: -32600, message: 'Invalid request: initialize must not be part of a batch' });
    expect(nestedBatch()).toEqual({ code: -32600, message: 'Invalid request: nested batch' });
  });

  describe('batchRefusal', () => {
    it('refuses an empty batch in any revision, and any batch where the revision has none', () => {
      expect(batchRefusal([], '2025-03-26')?.message).toBe('Invalid request: an empty batch');
      expect(batchRefusal([{}], '2025-06-18')?.message).toBe('Invalid request: JSON-RPC batches are not supported in protocol revision 2025-06-18');
      expect(batchRefusal([{}], undefined)?.message).toContain('(before initialization)');
      expect(batchRefusal([{}], '2025-03-26')).toBeUndefined();
    });
  });
});
