import { MessageTooLargeError } from '@statemcp/protocol';
import { describe, expect, it } from 'vitest';

import { SseParser, readSseStream, type SseEvent } from './sse-parse.js';

function collect(chunks: readonly string[], lastEventId?: string) {
  const events: SseEvent[] = [];
  const ids: (string | undefined)[] = [];
  const retries: number[] = [];
  const comments: string[] = [];
  const parser = new SseParser(
    {
      onEvent: (event) => events.push(event),
      onLastEventId: (id) => ids.push(id),
      onRetry: (ms) => retries.push(ms),
      onComment: (text) => comments.push(text),
    },
    lastEventId !== undefined ? { lastEventId } : undefined,
  );
  for (const chunk of chunks) parser.feed(chunk);
  parser.end();
  return { events, ids, retries, comments, parser };
}

describe('SseParser', () => {
  describe('#feed', () => {
    it('dispatches an event per blank line with the default type "message"', () => {
      const { events } = collect(['data: one\n\ndata: two\n\n']);
      expect(events.map((e) => [e.type, e.data])).toEqual([
        ['message', 'one'],
        ['message', 'two'],
      ]);
    });

    it('joins multi-line data with LF and honours the event field', () => {
      const { events } = collect(['event: endpoint\ndata: a\ndata:b\n\n']);
      expect(events).toEqual([{ type: 'endpoint', data: 'a\nb', lastEventId: undefined }]);
    });

    it('accepts CRLF, CR and LF terminators, even when a CRLF is split across chunks', () => {
      const { events } = collect(['data: x\r', '\n\r', '\ndata: y\r\rdata: z\n\n']);
      expect(events.map((e) => e.data)).toEqual(['x', 'y', 'z']);
    });

    it('handles arbitrary chunking, one character at a time', () => {
      const text = 'id: 7\nevent: message\ndata: {"a":1}\n\n';
      const { events } = collect([...text]);
      expect(events).toEqual([{ type: 'message', data: '{"a":1}', lastEventId: '7' }]);
    });

    it('moves the last event id on a priming event that carries no data', () => {
      const { events, ids } = collect(['id: prime-1\n\n']);
      expect(events).toEqual([]);
      expect(ids).toEqual(['prime-1']);
    });

    it('dispatches an empty data line as an event with empty data', () => {
      const { events, ids } = collect(['id: 1\ndata:\n\n']);
      expect(events).toEqual([{ type: 'message', data: '', lastEventId: '1' }]);
      expect(ids).toEqual(['1']);
    });

    it('reports numeric retry values and ignores others', () => {
      const { retries } = collect(['retry: 500\nretry: 5x\nretry:250\n\n']);
      expect(retries).toEqual([500, 250]);
    });

    it('reports comments and ignores unknown fields', () => {
      const { events, comments } = collect([': keep-alive\nfoo: bar\ndata: d\n\n']);
      expect(comments).toEqual(['keep-alive']);
      expect(events.map((e) => e.data)).toEqual(['d']);
    });

    it('ignores an id containing NUL and resets on an empty id', () => {
      const { ids } = collect(['id: a\n\nid: b\0c\n\nid\n\n']);
      expect(ids).toEqual(['a', undefined]);
    });

    it('strips a leading byte-order mark', () => {
      const { events } = collect(['\uFEFFdata: bom\n\n']);
      expect(events.map((e) => e.data)).toEqual(['bom']);
    });

    it('starts from a given last event id', () => {
      const { parser } = collect(['data: x\n\n'], '41');
      expect(parser.lastEventId).toBe('41');
    });
  });

  describe('#end', () => {
    it('discards an event that never got its blank line', () => {
      const { events } = collect(['data: complete\n\ndata: incomplete']);
      expect(events.map((e) => e.data)).toEqual(['complete']);
    });
  });
});

describe('readSseStream', () => {
  it('decodes UTF-8 split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const events: SseEvent[] = [];
    await readSseStream(stream, new SseParser({ onEvent: (e) => events.push(e) }));
    expect(events.map((e) => e.data)).toEqual(['héllo ✓']);
  });

  it('rejects when the signal aborts a pending read', async () => {
    const stream = new ReadableStream<Uint8Array>({ start() {} });
    const controller = new AbortController();
    const reading = readSseStream(stream, new SseParser({ onEvent: () => undefined }), controller.signal);
    controller.abort(new Error('stop'));
    await expect(reading).rejects.toThrow('stop');
  });

  it('stops reading and cancels the rest once isComplete says so, without waiting for the end', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const events: SseEvent[] = [];
    await readSseStream(stream, new SseParser({ onEvent: (e) => events.push(e) }), undefined, () => events.length === 1);
    expect(events.map((e) => e.data)).toEqual(['one']);
    expect(cancelled).toBe(true);
  });

  it('cancels the rest of the stream when the parser refuses an event past its bound', async () => {
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('x'.repeat(1000)));
      },
      cancel() {
        cancelled = true;
      },
    });
    const parser = new SseParser({ onEvent: () => undefined }, { maxEventSize: 4096, source: 'http://test/mcp' });
    await expect(readSseStream(stream, parser)).rejects.toBeInstanceOf(MessageTooLargeError);
    expect(cancelled).toBe(true);
  });
});

describe('SseParser bound (maxEventSize)', () => {
  const bounded = (events: SseEvent[]) => new SseParser({ onEvent: (e) => events.push(e) }, { maxEventSize: 100, source: 'http://test/mcp' });

  it('throws MessageTooLargeError naming the bound when a line never ends', () => {
    const parser = bounded([]);
    parser.feed(`data: ${'x'.repeat(60)}`);
    expect(() => parser.feed('x'.repeat(60))).toThrow('An SSE event from http://test/mcp exceeded the 100 bytes limit (maxMessageSize)');
  });

  it('throws when an event grows past the bound line by line without its blank line', () => {
    const parser = bounded([]);
    let thrown: unknown;
    try {
      for (let i = 0; i < 20; i++) parser.feed('data: xxxxxxxxxx\n');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(MessageTooLargeError);
  });

  it('lets any number of events within the bound through, whatever the stream carries in all', () => {
    const events: SseEvent[] = [];
    const parser = bounded(events);
    for (let i = 0; i < 100; i++) parser.feed(`: keep-alive\ndata: ${'y'.repeat(90)}\n\n`);
    expect(events).toHaveLength(100);
  });
});

