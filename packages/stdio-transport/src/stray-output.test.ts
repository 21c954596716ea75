import { describe, expect, it } from 'vitest';
import { STRAY_OUTPUT_INTERVAL_MS, StrayOutputReporter } from './stray-output.js';

function reporter() {
  const written: string[] = [];
  let now = 0;
  const subject = new StrayOutputReporter({ command: 'node server.js', write: (text) => written.push(text), now: () => now });
  return { subject, written, advance: (ms: number) => (now += ms) };
}

describe('StrayOutputReporter', () => {
  describe('#report', () => {
    it('warns once with the first bytes of the first stray line and the command', () => {
      const { subject, written } = reporter();
      subject.report('listening on port 3000');
      subject.report('got a request');
      expect(written).toHaveLength(1);
      expect(written[0]).toContain('"node server.js"');
      expect(written[0]).toContain('"listening on port 3000"');
      expect(written[0]).toContain('log to stderr');
    });

    it('cuts a long line to an excerpt', () => {
      const { subject, written } = reporter();
      subject.report(`${'x'.repeat(500)}`);
      expect(written[0]).toContain(`"${'x'.repeat(80)}…"`);
      expect(written[0]).not.toContain('x'.repeat(81));
    });

    it('sums later lines up at most once per interval, with a count and the latest line', () => {
      const { subject, written, advance } = reporter();
      subject.report('first');
      for (let i = 0; i < 40; i++) {
        advance(1000);
        subject.report(`line ${i}`);
      }
      expect(written).toHaveLength(1);
      advance(STRAY_OUTPUT_INTERVAL_MS);
      subject.report('latest');
      expect(written).toHaveLength(2);
      expect(written[1]).toContain('41 more stray lines');
      expect(written[1]).toContain('"latest"');
    });

    it('never throws when writing the warning fails', () => {
      const subject = new StrayOutputReporter({ command: 'c', write: () => { throw new Error('stderr closed'); }, now: () => 0 });
      expect(() => subject.report('x')).not.toThrow();
    });
  });
});
