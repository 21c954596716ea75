import { describe, expect, it } from 'vitest';
import type { FuzzCase } from './malformed-inputs.js';
import { judge, summarize } from './wire-oracle.js';

const request: FuzzCase = { index: 3, category: 'bad-meta', frame: '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":1}}', expect: { kind: 'reply', id: 7 } };
const garbage: FuzzCase = { index: 4, category: 'invalid-json', frame: '{', expect: { kind: 'null-id-error' } };
const notification: FuzzCase = { index: 5, category: 'unknown-method', frame: '{"jsonrpc":"2.0","method":"x"}', expect: { kind: 'silent' } };
const parseError = { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } };

describe('judge', () => {
  it('accepts exactly one response with the request id', () => {
    expect(judge(request, [{ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'bad' } }])).toEqual([]);
    expect(judge(request, []).map((v) => v.problem)).toEqual(['a request with a readable id got no response carrying that id']);
    expect(judge(request, [{ id: 7, result: {} }, { id: 7, result: {} }]).map((v) => v.problem)).toEqual(['a request got more than one response']);
  });

  it('wants "id": null on errors whose id cannot be read', () => {
    expect(judge(garbage, [{ ...parseError, id: null }])).toEqual([]);
    expect(judge(garbage, [parseError]).map((v) => v.problem)).toEqual(['error without an "id" member (JSON-RPC 2.0 §5 requires "id": null)']);
    expect(judge(garbage, []).map((v) => v.problem)).toEqual(['expected exactly one error with "id": null, got none']);
  });

  it('wants no answer to a notification', () => {
    expect(judge(notification, [])).toEqual([]);
    expect(judge(notification, [{ ...parseError, id: null }])).toHaveLength(1);
  });
});

describe('summarize', () => {
  it('groups equal problems with a count and the first case', () => {
    const lines = summarize([...judge(garbage, [parseError]), ...judge({ ...garbage, index: 9 }, [parseError])]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^invalid-json: error without an "id" member .* ×2 \(first: case #4: frame \{ →/);
  });
});
