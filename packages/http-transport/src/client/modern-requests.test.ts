import { describe, expect, it } from 'vitest';
import type { JsonRpcMessage } from '@statemcp/protocol';
import { ModernRequests } from './modern-requests.js';

const call = (id: number): JsonRpcMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: {} } });

/** A POST's abort that counts its calls. */
function post(): { abort(): void; aborts: number } {
  return {
    aborts: 0,
    abort() {
      this.aborts++;
    },
  };
}

describe('ModernRequests', () => {
  it('gives the routing headers and the sender’s over them', () => {
    const requests = new ModernRequests();
    expect(requests.open(call(1), [1], '2026-07-28', { 'mcp-param-city': 'Lyon' }, post())).toEqual({
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
      'mcp-param-city': 'Lyon',
    });
  });

  it('aborts the POST of a request in flight once, and no other', () => {
    const requests = new ModernRequests();
    const [first, second] = [post(), post()];
    requests.open(call(1), [1], '2026-07-28', undefined, first);
    requests.open(call(2), [2], '2026-07-28', undefined, second);
    expect(requests.cancel(1)).toBe(true);
    expect(requests.cancel(1)).toBe(false);
    expect([first.aborts, second.aborts]).toEqual([1, 0]);
  });

  it('cancels nothing once a request is answered or forgotten', () => {
    const requests = new ModernRequests();
    const batch = post();
    requests.open(call(1), [1, 2, 3], '2026-07-28', undefined, batch);
    requests.answered(1);
    requests.forget([2]);
    expect(requests.cancel(1)).toBe(false);
    expect(requests.cancel(2)).toBe(false);
    // The batch's last request still in flight aborts the POST they shared.
    expect(requests.cancel(3)).toBe(true);
    expect(batch.aborts).toBe(1);
  });

  it('keeps a string id apart from the number it spells', () => {
    const requests = new ModernRequests();
    const [numbered, named] = [post(), post()];
    requests.open(call(7), [7], '2026-07-28', undefined, numbered);
    requests.open(call(7), ['7'], '2026-07-28', undefined, named);
    requests.answered(7);
    expect(requests.cancel('7')).toBe(true);
    expect([numbered.aborts, named.aborts]).toEqual([0, 1]);
  });
});
