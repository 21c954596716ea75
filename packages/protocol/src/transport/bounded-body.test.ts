import { describe, expect, it } from 'vitest';
import { MessageTooLargeError } from '../errors/errors.js';
import { formatByteSize, readBoundedText } from './bounded-body.js';

/** A response whose body arrives in the given chunks, noting whether the rest was cancelled. */
function chunked(chunks: readonly string[], headers?: Record<string, string>): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = chunks[index++];
      if (next === undefined) controller.close();
      else controller.enqueue(new TextEncoder().encode(next));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, headers === undefined ? undefined : { headers }), cancelled: () => cancelled };
}

describe('readBoundedText', () => {
  it('reads a body within the bound, across chunks and split UTF-8, dropping a BOM', async () => {
    const bytes = new TextEncoder().encode('\uFEFFhé!');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, 4));
        controller.enqueue(bytes.subarray(4));
        controller.close();
      },
    });
    expect(await readBoundedText(new Response(body), { maxBytes: 64 })).toBe('hé!');
  });

  it('rejects past the bound with MessageTooLargeError naming it, and cancels the rest', async () => {
    const { response, cancelled } = chunked(['a'.repeat(600), 'b'.repeat(600), 'c'.repeat(600)]);
    const read = readBoundedText(response, { maxBytes: 1024, what: 'The JSON response from http://x/mcp' });
    await expect(read).rejects.toBeInstanceOf(MessageTooLargeError);
    await expect(read).rejects.toThrow('The JSON response from http://x/mcp exceeded the 1 KiB limit');
    expect(cancelled()).toBe(true);
  });

  it('refuses at once a body whose Content-Length is past the bound', async () => {
    const { response, cancelled } = chunked(['x'], { 'content-length': '5000' });
    await expect(readBoundedText(response, { maxBytes: 100 })).rejects.toThrow('The response body exceeded the 100 bytes limit');
    expect(cancelled()).toBe(true);
  });

  it('keeps the start of the body with overflow: truncate', async () => {
    const { response, cancelled } = chunked(['abcdef', 'ghij']);
    expect(await readBoundedText(response, { maxBytes: 8, overflow: 'truncate' })).toBe('abcdefgh');
    expect(cancelled()).toBe(true);
  });

  it('gives an empty string for a response without a body', async () => {
    expect(await readBoundedText(new Response(null, { status: 204 }), { maxBytes: 1 })).toBe('');
  });
});

describe('formatByteSize', () => {
  it('writes MiB, KiB and bytes', () => {
    expect([formatByteSize(16 * 1024 * 1024), formatByteSize(64 * 1024), formatByteSize(1500)]).toEqual(['16 MiB', '64 KiB', '1500 bytes']);
  });
});
