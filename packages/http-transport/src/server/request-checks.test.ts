import { describe, expect, it } from 'vitest';

import { acceptsMediaType } from './request-checks.js';

describe('acceptsMediaType', () => {
  it('admits exact, type/* and */* ranges with q > 0, case-insensitively', () => {
    expect(acceptsMediaType('application/json, text/event-stream', 'text/event-stream')).toBe(true);
    expect(acceptsMediaType('Text/*;q=0.5', 'text/event-stream')).toBe(true);
    expect(acceptsMediaType('*/*', 'application/json')).toBe(true);
    expect(acceptsMediaType('application/json', 'text/event-stream')).toBe(false);
    expect(acceptsMediaType('text/event-stream; Q=0', 'text/event-stream')).toBe(false);
    expect(acceptsMediaType(undefined, 'application/json')).toBe(false);
  });

  it('gives the same answer for a remembered value, and past the table bound', () => {
    for (let round = 0; round < 3; round++) {
      expect(acceptsMediaType('application/json;q=0, text/event-stream', 'application/json')).toBe(false);
      expect(acceptsMediaType('application/json;q=0, text/event-stream', 'text/event-stream')).toBe(true);
    }
    for (let i = 0; i < 200; i++) {
      expect(acceptsMediaType(`application/x-${i}, text/event-stream`, 'text/event-stream')).toBe(true);
      expect(acceptsMediaType(`application/x-${i}`, 'text/event-stream')).toBe(false);
    }
    expect(acceptsMediaType('application/json;q=0, text/event-stream', 'application/json')).toBe(false);
  });
});
