/**
 * Reading a `fetch` response's body in the client transports: the SSE stream of a POST or GET
 * and the bodies they discard. A `nodeHttpFetch` response is read straight off node's
 * `IncomingMessage` (`'data'` events decoded by the stream's own UTF-8 decoder); any other
 * `Response` through its web `ReadableStream`. Both paths give the parser the same text and
 * stop the same way: at the end of the body, when the caller's `isComplete` says every
 * awaited answer arrived, or when `signal` aborts (rejecting with its reason).
 */
import type { IncomingMessage } from 'node:http';
import { MessageTooLargeError } from '@statemcp/protocol';
import { readBoundedText, tooLargeError } from '@statemcp/protocol/internal';
import { claimNodeBody, hasBody, responseHeader } from '#node-http-fetch';
import { abortError } from './abort-error.js';
import { readSseStream, type SseParser } from '../shared/sse-parse.js';

export { hasBody, responseHeader };

/**
 * The default bound of one message from the server: a JSON response body (bytes) or one SSE
 * event (characters). Larger than the server's 4 MiB request bound, since answers carry
 * resources and images; a server that sends more gets `MessageTooLargeError`.
 */
export const DEFAULT_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

/** The most bytes drained from a body nobody reads before the connection is cut instead. */
const MAX_DRAINED_BYTES = 64 * 1024;

/** Feeds `response`'s body to `parser` until it ends, `isComplete()` turns true, or `signal` aborts. */
export function readSseBody(response: Response, parser: SseParser, signal?: AbortSignal, isComplete?: () => boolean): Promise<void> {
  const incoming = claimNodeBody(response);
  if (incoming !== undefined) return readSseIncoming(incoming, parser, signal, isComplete);
  const body = response.body;
  if (body === null) return Promise.resolve();
  return readSseStream(body, parser, signal, isComplete);
}

/**
 * The whole body as text (UTF-8, a leading BOM dropped), as `response.text()` gives it, at most
 * `maxBytes` bytes: past them the body is cut and the read rejects with `MessageTooLargeError`
 * (`what` names the body in it).
 */
export function readText(response: Response, maxBytes: number, what: string): Promise<string> {
  const incoming = claimNodeBody(response);
  if (incoming === undefined) return readBoundedText(response, { maxBytes, what, option: 'maxMessageSize' });
  return new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        chunks.length = 0;
        incoming.destroy();
        reject(tooLargeError(what, maxBytes, 'maxMessageSize'));
        return;
      }
      chunks.push(chunk);
    });
    let ended = false;
    // `on`, not `once`: each of these fires at most once, and `once` wraps every listener.
    incoming.on('end', () => {
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

/**
 * The JSON body of a POST's answer as text, bounded by `maxMessageSize` (default
 * {@link DEFAULT_MAX_MESSAGE_SIZE}): past it, the `MessageTooLargeError` its requests fail with;
 * a body that broke off reads as empty (its requests then get no answer).
 */
export function readJsonText(response: Response, maxMessageSize: number | undefined, url: string): Promise<string | InstanceType<typeof MessageTooLargeError>> {
  return readText(response, maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE, `The JSON response from ${url}`).catch((error: unknown) => (error instanceof MessageTooLargeError ? error : ''));
}

/** Drops a body nobody reads. A node body is drained, so its keep-alive socket goes back to the pool. */
export async function discardBody(response: Response): Promise<void> {
  const incoming = claimNodeBody(response);
  if (incoming !== undefined) {
    // Drained so the keep-alive socket goes back to the pool; a body that goes on and on is cut.
    let drained = 0;
    incoming.on('data', (chunk: Buffer) => {
      drained += chunk.byteLength;
      if (drained > MAX_DRAINED_BYTES) incoming.destroy();
    });
    return;
  }
  await response.body?.cancel().catch(() => undefined);
}

function readSseIncoming(incoming: IncomingMessage, parser: SseParser, signal: AbortSignal | undefined, isComplete: (() => boolean) | undefined): Promise<void> {
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
