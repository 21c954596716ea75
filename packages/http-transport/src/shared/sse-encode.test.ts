import { describe, expect, it } from 'vitest';
import { encodeSseComment, encodeSseEvent, encodeSseRetry } from './sse-encode.js';

describe('encodeSseEvent', () => {
  it('writes event, id, retry and data fields ending with a blank line', () => {
    expect(encodeSseEvent({ data: '{"a":1}' })).toBe('data: {"a":1}\n\n');
    expect(encodeSseEvent({ id: 's:1', event: 'message', data: 'x', retry: 500 })).toBe('event: message\nid: s:1\nretry: 500\ndata: x\n\n');
  });
  it('writes an empty data line for priming events', () => {
    expect(encodeSseEvent({ id: 's:0', data: '' })).toBe('id: s:0\ndata: \n\n');
  });
  it('splits multi-line data into several data fields', () => {
    expect(encodeSseEvent({ data: 'a\nb\r\nc' })).toBe('data: a\ndata: b\ndata: c\n\n');
  });
  it('refuses ids and event names with line breaks', () => {
    expect(() => encodeSseEvent({ id: 'a\nb', data: '' })).toThrow(RangeError);
    expect(() => encodeSseEvent({ event: 'a\rb', data: '' })).toThrow(RangeError);
    expect(() => encodeSseEvent({ data: '', retry: -1 })).toThrow(RangeError);
  });
});

describe('encodeSseComment', () => {
  it('writes comment lines', () => {
    expect(encodeSseComment()).toBe(':\n\n');
    expect(encodeSseComment('keep\nalive')).toBe(': keep\n: alive\n\n');
  });
});

describe('encodeSseRetry', () => {
  it('writes a retry-only block', () => {
    expect(encodeSseRetry(1000)).toBe('retry: 1000\n\n');
  });
});
