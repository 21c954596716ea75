import { describe, expect, it } from 'vitest';
import { TailBuffer } from './tail-buffer.js';

describe('TailBuffer', () => {
  describe('#write', () => {
    it('keeps everything below the capacity', () => {
      const tail = new TailBuffer(16);
      tail.write(Buffer.from('abc'));
      tail.write(Buffer.from('def'));
      expect(tail.toString()).toBe('abcdef');
    });

    it('keeps only the last capacity bytes across many writes', () => {
      const tail = new TailBuffer(10);
      for (let index = 0; index < 100; index += 1) tail.write(Buffer.from(`${index % 10}`));
      expect(tail.toString()).toBe('0123456789');
      expect(tail.size).toBe(10);
      expect(tail.totalWritten).toBe(100);
    });

    it('keeps the end of a single write larger than the capacity', () => {
      const tail = new TailBuffer(4);
      tail.write(Buffer.from('abcdefgh'));
      expect(tail.toString()).toBe('efgh');
    });

    it('stays bounded after 1 MiB', () => {
      const tail = new TailBuffer(1024);
      const chunk = Buffer.alloc(1000, 0x61);
      for (let index = 0; index < 1100; index += 1) tail.write(chunk);
      expect(tail.size).toBe(1024);
    });

    it('does not alias the caller buffer', () => {
      const tail = new TailBuffer(16);
      const chunk = Buffer.from('abc');
      tail.write(chunk);
      chunk.fill(0x7a);
      expect(tail.toString()).toBe('abc');
    });

    it('keeps nothing with capacity 0', () => {
      const tail = new TailBuffer(0);
      tail.write(Buffer.from('abc'));
      expect(tail.toString()).toBe('');
    });
  });

  describe('#toString', () => {
    it('skips a multi-byte character cut in half by the bound', () => {
      const tail = new TailBuffer(5);
      tail.write(Buffer.from('a€bcd', 'utf8')); // € is 3 bytes; the tail starts inside it
      expect(tail.toString()).toBe('bcd');
    });
  });
});
