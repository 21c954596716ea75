/**
 * Reading a `fetch` response's body in the client transports: the SSE stream of a POST or GET
 * and the bodies they discard. A `nodeHttpFetch` response is read straight off node's
 * `IncomingMessage` (`'data'` events decoded by the stream's own UTF-8 decoder); any other
 * `Response` through its web `ReadableStream`. Both paths give the parser the same text and
 * stop the same way: at the end of the body, when the caller's `isComplete` says every
 * awaited answer arrived, or when `signal` aborts (rejecting with its reason).
 */
import { readBoundedText } from '@statemcp/protocol/internal';
import { claimNodeBody, hasBody, responseHeader } from '#node-http-fetch';
import { drainIncoming, readIncomingText, readSseIncoming } from './incoming-body.js';
import { readSseStream, type SseParser } from '../shared/sse-parse.js';

export { hasBody, responseHeader };

/**
 * The default bound of one message from the server: a JSON response body (bytes) or one SSE
 * event (characters). Larger than the server's 4 MiB request bound, since answers carry
 * resources and images; a server that sends more gets `MessageTooLargeError`.
 */
export const DEFAULT_MAX_MESSAGE_SIZE = 16 * 1024 * 1024;

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
  return readIncomingText(incoming, maxBytes, what);
}

/** Drops a body nobody reads. A node body is drained, so its keep-alive socket goes back to the pool. */
export async function discardBody(response: Response): Promise<void> {
  const incoming = claimNodeBody(response);
  if (incoming !== undefined) return drainIncoming(incoming);
  await response.body?.cancel().catch(() => undefined);
}
