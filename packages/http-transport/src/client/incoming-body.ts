/**
 * Reading a `node:http` response body (`IncomingMessage`) in the client transports: the bodies
 * of `nodeHttpFetch` responses claimed by `response-body.ts`, and those of the transport's own
 * `node:http` POSTs (`node-http-post.ts`). `'data'` events, decoded by Node (`Buffer#toString`,
 * or the stream's own UTF-8 decoder for SSE): no web stream, reader or promise per chunk.
 * Only node's types are imported, so this file bundles anywhere.
 */
import type { IncomingMessage } from 'node:http';
import { tooLargeError } from '@statemcp/protocol/internal';
import { abortError } from './abort-error.js';
import type { SseParser } from '../shared/sse-parse.js';

/**
 * One header of `incoming` (`name` in lower case), as `Headers#get` gives it: every value of the
 * name, joined with `, `. Read off `rawHeaders`: node's `headers` object is built on first read,
 * one line at a time, which showed in the client's profile for the one or two headers it needs.
 */
export function incomingHeader(incoming: IncomingMessage, name: string): string | null {
  const raw = incoming.rawHeaders;
  let value: string | null = null;
  for (let i = 0; i < raw.length; i += 2) {
    const key = raw[i] as string;
    if (key.length !== name.length || key.toLowerCase() !== name) continue;
    const item = raw[i + 1] as string;
    value = value === null ? item : `${value}, ${item}`;
  }
  return value;
}

/** The most bytes drained from a body nobody reads before the connection is cut instead. */
const MAX_DRAINED_BYTES = 64 * 1024;

/**
 * The whole body as UTF-8 text (a leading BOM dropped), at most `maxBytes` bytes. Past them the
 * body is cut and the read rejects with `MessageTooLargeError` (`what` names the body in it), or,
 * with `truncate`, resolves with the text of the bytes read so far.
 */
export function readIncomingText(incoming: IncomingMessage, maxBytes: number, what: string, truncate = false): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    incoming.on('data', (chunk: Buffer) => {
      if (ended) return;
      const room = maxBytes - size;
      size += chunk.byteLength;
      if (chunk.byteLength > room) {
        ended = true;
        if (truncate) {
          chunks.push(chunk.subarray(0, room));
          resolve(decodeUtf8(Buffer.concat(chunks)));
        } else reject(tooLargeError(what, maxBytes, 'maxMessageSize'));
        chunks.length = 0;
        incoming.destroy();
        return;
      }
      chunks.push(chunk);
    });
    // `on`, not `once`: each of these fires at most once, and `once` wraps every listener.
    incoming.on('end', () => {
      if (ended) return;
      ended = true;
      resolve(decodeUtf8(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)));
    });
    incoming.on('error', reject);
    incoming.on('close', () => {
      if (!ended) reject(new Error('The response body was closed before it ended'));
    });
  });
}

/**
 * UTF-8 text of `bytes` with a leading BOM dropped, as `TextDecoder` gives it (malformed
 * sequences become U+FFFD) but without its per-call work, which showed in the JSON answer's path.
 */
function decodeUtf8(bytes: Buffer): string {
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** Drains a body nobody reads, so its keep-alive socket goes back to the pool; a body that goes on and on is cut. */
export function drainIncoming(incoming: IncomingMessage): void {
  let drained = 0;
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > MAX_DRAINED_BYTES) incoming.destroy();
  });
}

/**
 * Feeds the body to `parser` until it ends, `isComplete()` turns true, or `signal` aborts
 * (rejecting with its reason). Without a signal, whoever stops the read destroys `incoming`
 * (the read then rejects with the error it was destroyed with).
 */
export function readSseIncoming(incoming: IncomingMessage, parser: SseParser, signal: AbortSignal | undefined, isComplete: (() => boolean) | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false;
    // 'error' and 'close' stay listened to after settling: a body destroyed with an error
    // later (the fetch's own abort listener) must not emit an unhandled 'error'.
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      incoming.off('data', onData);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = (): void => {
      incoming.destroy();
      if (signal !== undefined) settle(abortError(signal));
    };
    const onData = (text: string): void => {
      if (settled) return;
      try {
        parser.feed(text);
      } catch (error) {
        incoming.destroy();
        settle(asError(error));
        return;
      }
      if (isComplete?.() === true) {
        settle();
        // Every awaited answer is in: stop reading. 'data' is emitted while node's parser is
        // still inside the socket's bytes, so whether the body's last chunk came with them is
        // known a microtask later: a body that ended keeps its keep-alive socket, one the
        // server keeps open is cut (as a web reader's cancel does).
        queueMicrotask(() => {
          if (incoming.complete) incoming.resume();
          else incoming.destroy();
        });
      }
    };
    const onEnd = (): void => {
      if (settled) return;
      try {
        parser.end();
        settle();
      } catch (error) {
        settle(asError(error));
      }
    };
    const onError = (error: Error): void => settle(error);
    const onClose = (): void => {
      // After 'end' (the usual case) there is nothing to report, and no error to build.
      if (!settled) settle(new Error('The response body was closed before it ended'));
    };
    if (signal?.aborted === true) {
      onAbort();
      return;
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    incoming.setEncoding('utf8');
    incoming.on('data', onData);
    // `on`, not `once`: 'end' and 'close' come once, and a late 'error' finds `settle` done.
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
