/**
 * Framing cost: statemcp's LineFramer against the official SDK's ReadBuffer, fed the same
 * bytes in 64 KiB chunks (the pipe read size). Run: `npx vitest bench --run` in this package.
 *
 * - one 8 MiB message: the SDK re-concatenates its whole buffer on every chunk (quadratic);
 *   LineFramer keeps chunk slices and copies once.
 * - 10 000 small messages: both linear; shows the per-message overhead.
 *
 * Both sides include JSON.parse of each line; the SDK's zod validation is left out
 * (`readMessage` is replaced by a parse-only loop over its buffer) so that only framing differs.
 */
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { bench, describe } from 'vitest';
import { LineFramer } from '../src/line-framer.js';

const CHUNK = 64 * 1024;

function chunked(text: string): Buffer[] {
  const bytes = Buffer.from(text);
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.subarray(at, at + CHUNK));
  return chunks;
}

const oneLarge = chunked(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { data: 'x'.repeat(8 * 1024 * 1024) } })}\n`);
const manySmall = chunked(
  Array.from({ length: 10_000 }, (_, id) => `${JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: `r${id}` }] } })}\n`).join(''),
);

function runLineFramer(chunks: Buffer[]): number {
  let count = 0;
  const framer = new LineFramer({
    onLine: (text) => {
      JSON.parse(text);
      count += 1;
    },
    onOversized: () => undefined,
  });
  for (const chunk of chunks) framer.push(chunk);
  return count;
}

/** The SDK's buffering with its readMessage loop, minus zod: same indexOf/toString/subarray steps. */
function runSdkReadBuffer(chunks: Buffer[]): number {
  let count = 0;
  const buffer = new ReadBuffer({ maxBufferSize: 64 * 1024 * 1024 });
  const internal = buffer as unknown as { _buffer?: Buffer };
  for (const chunk of chunks) {
    buffer.append(chunk);
    for (;;) {
      const current = internal._buffer;
      if (current === undefined) break;
      const index = current.indexOf('\n');
      if (index === -1) break;
      JSON.parse(current.toString('utf8', 0, index).replace(/\r$/, ''));
      internal._buffer = current.subarray(index + 1);
      count += 1;
    }
  }
  return count;
}

describe('one 8 MiB message in 64 KiB chunks', () => {
  bench('statemcp LineFramer', () => {
    runLineFramer(oneLarge);
  });
  bench('official SDK ReadBuffer', () => {
    runSdkReadBuffer(oneLarge);
  });
});

describe('10 000 small messages in 64 KiB chunks', () => {
  bench('statemcp LineFramer', () => {
    runLineFramer(manySmall);
  });
  bench('official SDK ReadBuffer', () => {
    runSdkReadBuffer(manySmall);
  });
});
