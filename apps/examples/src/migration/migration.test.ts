// The migration guide's worked example: the same client session against the official SDK 1.x
// greeter and its statemcp port gives the same answers.
import { describe, expect, it } from 'vitest';
import { exerciseGreeter } from './exercise.js';
import { listenOfficialGreeter } from './official-server.js';
import { listenGreeter } from './statemcp-server.js';

describe('porting the official SDK greeter to statemcp', () => {
  it('answers the same session the same way', async () => {
    const official = await listenOfficialGreeter();
    const ported = await listenGreeter();
    try {
      const expected = [
        'tools: greet, multi-greet',
        'greet: Hello, Ada!',
        'log info: first greeting for Ada',
        'log info: second greeting for Ada',
        'multi-greet: Hello twice, Ada!',
        'prompt: Please greet Ada warmly.',
        'resource: Hello, world!',
      ];
      // Log lines arrive while the call runs; compare as sets of lines.
      const before = await exerciseGreeter(official.url);
      const after = await exerciseGreeter(ported.url);
      expect(before.toSorted()).toEqual(expected.toSorted());
      expect(after.toSorted()).toEqual(expected.toSorted());
    } finally {
      await official.close();
      await ported.close();
    }
  });
});
