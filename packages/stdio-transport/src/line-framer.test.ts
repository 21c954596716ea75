import { describe, expect, it } from 'vitest';
import { LineFramer, encodeFrame } from './line-framer.js';

function collect(maxMessageSize?: number) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const framer = new LineFramer(
    { onLine: (text) => lines.push(text), onOversized: (size) => oversized.push(size) },
    maxMessageSize === undefined ? {} : { maxMessageSize },
  );
  return { framer, lines, oversized };
}

/** Counts how often each byte is looked at by `Buffer#indexOf`, to prove the scan is linear. */
function countingBuffer(source: Buffer, counter: { scanned: number }): Buffer {
  const buffer = Buffer.from(source);
  const original = buffer.indexOf.bind(buffer);
  buffer.indexOf = ((value: number, start?: number) => {
    const found = original(value, start);
    counter.scanned += (found === -1 ? buffer.length : found + 1) - (start ?? 0);
    return found;
  }) as Buffer['indexOf'];
  return buffer;
}

describe('LineFramer', () => {
  describe('#push', () => {
    it('splits one chunk holding several lines', () => {
      const { framer, lines } = collect();
      framer.push(Buffer.from('{"a":1}\n{"b":2}\n'));
      expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    });

    it('joins a line split across many chunks at every boundary', () => {
      const text = '{"jsonrpc":"2.0","id":7,"method":"echo"}\n';
      for (let size = 1; size <= text.length; size += 1) {
        const { framer, lines } = collect();
        for (let at = 0; at < text.length; at += size) framer.push(Buffer.from(text.slice(at, at + size)));
        expect(lines).toEqual([text.slice(0, -1)]);
      }
    });

    it('decodes a multi-byte UTF-8 character split across chunks', () => {
      const text = '{"s":"héllo 🌍 世界"}\n';
      const bytes = Buffer.from(text, 'utf8');
      for (let cut = 1; cut < bytes.length; cut += 1) {
        const { framer, lines } = collect();
        framer.push(bytes.subarray(0, cut));
        framer.push(bytes.subarray(cut));
        expect(lines).toEqual([text.slice(0, -1)]);
      }
    });

    it('tolerates \\r\\n and ignores empty and blank lines', () => {
      const { framer, lines } = collect();
      framer.push(Buffer.from('\n\r\n{"a":1}\r\n   \n\t\r\n{"b":2}\n'));
      expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    });

    it('accepts Uint8Array chunks that are not Buffers', () => {
      const { framer, lines } = collect();
      framer.push(new TextEncoder().encode('{"a":1}\n'));
      expect(lines).toEqual(['{"a":1}']);
    });

    it('examines every byte once however the input is chunked', () => {
      const line = `{"data":"${'x'.repeat(1024 * 1024)}"}\n`;
      const source = Buffer.from(line.repeat(4));
      const counter = { scanned: 0 };
      const { framer, lines } = collect();
      for (let at = 0; at < source.length; at += 4096) {
        framer.push(countingBuffer(source.subarray(at, at + 4096), counter));
      }
      expect(lines).toHaveLength(4);
      expect(counter.scanned).toBe(source.length);
    });

    it('keeps an incomplete line as chunk slices without copying them', () => {
      const { framer } = collect();
      framer.push(Buffer.from('{"partial":'));
      framer.push(Buffer.from('"yes"'));
      expect(framer.bufferedBytes).toBe(16);
    });

    it('frames a 10 MiB line delivered in 64 KiB chunks', () => {
      const payload = 'y'.repeat(10 * 1024 * 1024);
      const source = Buffer.from(`{"p":"${payload}"}\n`);
      const { framer, lines } = collect();
      for (let at = 0; at < source.length; at += 65536) framer.push(source.subarray(at, at + 65536));
      expect(lines).toHaveLength(1);
      expect((JSON.parse(lines[0] ?? '') as { p: string }).p.length).toBe(payload.length);
    });
  });

  describe('maxMessageSize', () => {
    it('reports a line beyond the limit once and resumes after its newline', () => {
      const { framer, lines, oversized } = collect(16);
      framer.push(Buffer.from('{"a":1}\n'));
      framer.push(Buffer.from('0123456789'));
      framer.push(Buffer.from('0123456789'));
      framer.push(Buffer.from('0123456789\n{"b":2}\n'));
      expect(oversized).toEqual([20]);
      expect(lines).toEqual(['{"a":1}', '{"b":2}']);
      expect(framer.bufferedBytes).toBe(0);
    });

    it('reports an oversized line that arrives complete in one chunk', () => {
      const { framer, lines, oversized } = collect(4);
      framer.push(Buffer.from('0123456789\n{}\n'));
      expect(oversized).toEqual([10]);
      expect(lines).toEqual(['{}']);
    });

    it('accepts a line of exactly the limit', () => {
      const { framer, lines, oversized } = collect(7);
      framer.push(Buffer.from('{"a":1}\n'));
      expect(oversized).toEqual([]);
      expect(lines).toEqual(['{"a":1}']);
    });

    it('rejects a non-positive limit', () => {
      expect(() => collect(0)).toThrow(RangeError);
    });
  });

  describe('#end', () => {
    it('delivers a final line without a terminator', () => {
      const { framer, lines } = collect();
      framer.push(Buffer.from('{"a":1}\n{"b":2}'));
      framer.end();
      expect(lines).toEqual(['{"a":1}', '{"b":2}']);
    });

    it('drops the rest of an oversized final line', () => {
      const { framer, lines } = collect(4);
      framer.push(Buffer.from('0123456789'));
      framer.end();
      expect(lines).toEqual([]);
    });
  });
});

describe('encodeFrame', () => {
  it('produces exactly one line even when strings hold newlines', () => {
    const frame = encodeFrame({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\r\nc' } });
    expect(frame.endsWith('\n')).toBe(true);
    expect(frame.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(frame)).toEqual({ jsonrpc: '2.0', method: 'x', params: { text: 'a\nb\r\nc' } });
  });
});
