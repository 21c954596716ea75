import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { FrameWriter } from './frame-writer.js';

/** A writable whose callbacks the test releases by hand, to hold it in a full state. */
function slowSink(highWaterMark: number) {
  const written: string[] = [];
  const callbacks: Array<(error?: Error | null) => void> = [];
  const stream = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      written.push(chunk.toString());
      callbacks.push(callback);
    },
  });
  const release = (): void => {
    for (const callback of callbacks.splice(0)) callback();
  };
  return { stream, written, release, callbacks };
}

const toError = (cause: unknown): Error => new Error('closed', { cause });

/** Resolves after the writer's flush armed by earlier writes of this tick has run. */
const afterFlush = (): Promise<void> => new Promise<void>((resolve) => process.nextTick(resolve));

describe('FrameWriter', () => {
  describe('#write', () => {
    it('joins the frames of one tick into one write, made on the next tick', async () => {
      const chunks: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk.toString());
          callback();
        },
      });
      const writer = new FrameWriter(stream, toError);
      const burst = Array.from({ length: 10 }, (_, index) => writer.write(`${index}\n`));
      expect(chunks).toEqual([]);
      await afterFlush();
      expect(chunks).toEqual(['0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n']);
      await Promise.all(burst);
      expect(chunks).toEqual(['0\n1\n2\n3\n4\n5\n6\n7\n8\n9\n']);
    });

    it('keeps frames that arrive while a write is in flight for one write when its callback runs', async () => {
      const sink = slowSink(1024);
      const writer = new FrameWriter(sink.stream, toError);
      const first = writer.write('a\n');
      await new Promise<void>((resolve) => setImmediate(resolve));
      const later = [writer.write('b\n'), writer.write('c\n')];
      expect(sink.written).toEqual(['a\n']);
      expect(writer.pending).toBe(3);
      sink.release();
      await first;
      expect(sink.written).toEqual(['a\n', 'b\nc\n']);
      sink.release();
      await Promise.all(later);
      expect(writer.pending).toBe(0);
    });

    it('settles a frame with the write that carried it, not with an earlier one still in flight', async () => {
      const sink = slowSink(1024);
      const writer = new FrameWriter(sink.stream, toError);
      const first = writer.write('a\n');
      await afterFlush();
      let laterSettled = false;
      const later = writer.write('b\n').then(() => (laterSettled = true));
      sink.release();
      await first;
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(sink.written).toEqual(['a\n', 'b\n']);
      expect(laterSettled).toBe(false);
      expect(writer.pending).toBe(1);
      sink.release();
      await later;
      expect(writer.pending).toBe(0);
    });

    it('does not join more than 64 KiB into one write', async () => {
      const chunks: string[] = [];
      const stream = new Writable({
        highWaterMark: 1024 * 1024,
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk.toString());
          callback();
        },
      });
      const writer = new FrameWriter(stream, toError);
      const frame = `${'x'.repeat(40 * 1024)}\n`;
      await Promise.all([writer.write('first\n'), writer.write(frame), writer.write(frame), writer.write(frame)]);
      expect(chunks.map((chunk) => chunk.length)).toEqual([6 + frame.length, frame.length, frame.length]);
    });

    it('writes frames in call order', async () => {
      const chunks: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk.toString());
          callback();
        },
      });
      const writer = new FrameWriter(stream, toError);
      await Promise.all(Array.from({ length: 100 }, (_, index) => writer.write(`${index}\n`)));
      expect(chunks.join('')).toBe(Array.from({ length: 100 }, (_, index) => `${index}\n`).join(''));
    });

    it('holds later frames in its queue until the stream drains', async () => {
      const sink = slowSink(8);
      const writer = new FrameWriter(sink.stream, toError);
      const first = writer.write('0123456789\n');
      await afterFlush();
      const second = writer.write('second\n');
      expect(sink.written).toEqual(['0123456789\n']);
      expect(sink.stream.writableLength).toBe(11);
      expect(writer.pending).toBe(2);
      sink.release();
      await first;
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(sink.written).toEqual(['0123456789\n', 'second\n']);
      sink.release();
      await second;
      expect(writer.pending).toBe(0);
    });

    it('rejects a frame the stream fails to write', async () => {
      const stream = new Writable({
        write(_chunk, _encoding, callback) {
          callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
        },
      });
      stream.on('error', () => undefined);
      const writer = new FrameWriter(stream, toError);
      await expect(writer.write('x\n')).rejects.toThrow('closed');
    });
  });

  describe('#fail', () => {
    it('rejects in-flight and queued frames and later writes', async () => {
      const sink = slowSink(1);
      const writer = new FrameWriter(sink.stream, toError);
      const inFlight = writer.write('a\n');
      await afterFlush();
      const queued = writer.write('b\n');
      expect(sink.written).toEqual(['a\n']);
      writer.fail(() => new Error('gone'));
      await expect(inFlight).rejects.toThrow('gone');
      await expect(queued).rejects.toThrow('gone');
      await expect(writer.write('c\n')).rejects.toThrow('gone');
    });

    it('builds the error only when a frame or a later write needs it, and once', async () => {
      const writer = new FrameWriter(slowSink(1).stream, toError);
      const gone = new Error('gone');
      let built = 0;
      writer.fail(() => {
        built += 1;
        return gone;
      });
      expect(built).toBe(0);
      await expect(writer.write('a\n')).rejects.toBe(gone);
      await expect(writer.write('b\n')).rejects.toBe(gone);
      expect(built).toBe(1);
    });
  });

  describe('#end', () => {
    it('ends the stream after the queued frames', async () => {
      const sink = slowSink(1);
      const writer = new FrameWriter(sink.stream, toError);
      const frames = [writer.write('a\n')];
      await afterFlush();
      frames.push(writer.write('b\n'));
      writer.end();
      await expect(writer.write('c\n')).rejects.toThrow('closed');
      expect(sink.stream.writableEnded).toBe(false);
      sink.release();
      await new Promise<void>((resolve) => setImmediate(resolve));
      sink.release();
      await Promise.all(frames);
      expect(sink.written).toEqual(['a\n', 'b\n']);
      expect(sink.stream.writableEnded).toBe(true);
    });
  });

  describe('#whenIdle', () => {
    it('resolves once every accepted frame is confirmed', async () => {
      const sink = slowSink(1024);
      const writer = new FrameWriter(sink.stream, toError);
      const frame = writer.write('a\n');
      let idle = false;
      const whenIdle = writer.whenIdle().then(() => (idle = true));
      await afterFlush();
      expect(idle).toBe(false);
      sink.release();
      await frame;
      await whenIdle;
      expect(idle).toBe(true);
    });
  });

  describe('a stream that breaks', () => {
    it('fails every queued and in-flight frame at once when the stream errors while full (EPIPE)', async () => {
      const { stream } = slowSink(8);
      const writer = new FrameWriter(stream, toError);
      const first = writer.write('a long first frame\n');
      await afterFlush();
      const queued = writer.write('second\n');
      const idle = writer.whenIdle();
      expect(writer.pending).toBe(2);
      const epipe = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
      stream.destroy(epipe);
      await expect(first).rejects.toMatchObject({ message: 'closed', cause: epipe });
      await expect(queued).rejects.toMatchObject({ message: 'closed', cause: epipe });
      await idle;
      expect(writer.pending).toBe(0);
      await expect(writer.write('later\n')).rejects.toMatchObject({ message: 'closed' });
    });
  });
});
