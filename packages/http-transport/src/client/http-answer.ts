/**
 * One HTTP answer as the Streamable HTTP client transport reads it, and the two ways its POSTs
 * are made. The transport's handling of an answer (status, session id, a JSON or SSE body, the
 * errors of a refusal) is written once, against {@link HttpAnswer}; two exchanges produce it:
 *
 * - {@link fetchAnswer} over a `fetch` `Response`: the application's `fetch` (or the global one),
 *   under the transport's redirect guard (`transport-fetch.ts`), with the POST's `AbortSignal`.
 *   Every GET stream and DELETE goes this way too;
 * - the transport's own POST on `node:http` (`node-http-post.ts`), when it runs on its default
 *   `nodeHttpFetch` and nothing asked for the web objects (no `fetch`, `requestInit` or
 *   `authProvider` given): the same request without the `Response`, `Headers`, `AbortSignal` and
 *   the guard's promise per POST; it refuses redirects and aborts itself (see that file).
 */
import { MessageTooLargeError, TransportError } from '@statemcp/protocol';
import { nodeDefaultPost } from '#node-http-fetch';
import type { ScopedSignal } from './abort-scope.js';
import { HttpResponseError, readBodyExcerpt, refusalError } from './http-errors.js';
import { DEFAULT_MAX_MESSAGE_SIZE, discardBody, hasBody, readSseBody, readText, responseHeader } from './response-body.js';
import type { StreamableHttpClientTransportOptions } from './streamable-http-options.js';
import type { SseParser } from '../shared/sse-parse.js';

/** An HTTP answer: its status line, headers and a body read once, one way or another. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A 2xx status. */
  readonly ok: boolean;
  /** False for an answer without a body (204, 304, …). */
  readonly hasBody: boolean;
  /** One header (`name` in lower case), as `Headers#get` gives it. */
  header(name: string): string | null;
  /** The whole body as UTF-8 text, at most `maxBytes` bytes (past them, `MessageTooLargeError` naming `what`). */
  text(maxBytes: number, what: string): Promise<string>;
  /** The start of the body, for an error message; never rejects. */
  excerpt(): Promise<string>;
  /** Drops the body (drained, so a keep-alive socket goes back to the pool, or cancelled). */
  discard(): Promise<void>;
  /** Feeds the SSE body to `parser` until it ends, `isComplete()` turns true, or `stop` aborts (rejecting). */
  readSse(parser: SseParser, stop: ScopedSignal, isComplete: () => boolean): Promise<void>;
}

/** Sends one POST of the transport (to its URL) and resolves with the answer's headers; `stop` aborts it. Rejects as `fetch` does. */
export type PostExchange = (headers: Record<string, string>, body: string, stop: ScopedSignal) => Promise<HttpAnswer>;

class FetchAnswer implements HttpAnswer {
  readonly #response: Response;

  constructor(response: Response) {
    this.#response = response;
  }

  get status(): number {
    return this.#response.status;
  }

  get statusText(): string {
    return this.#response.statusText;
  }

  get ok(): boolean {
    return this.#response.ok;
  }

  get hasBody(): boolean {
    return hasBody(this.#response);
  }

  header(name: string): string | null {
    return responseHeader(this.#response, name);
  }

  text(maxBytes: number, what: string): Promise<string> {
    return readText(this.#response, maxBytes, what);
  }

  excerpt(): Promise<string> {
    return readBodyExcerpt(this.#response);
  }

  discard(): Promise<void> {
    return discardBody(this.#response);
  }

  readSse(parser: SseParser, stop: ScopedSignal, isComplete: () => boolean): Promise<void> {
    return readSseBody(this.#response, parser, stop.signal, isComplete);
  }
}

/** `response` as an {@link HttpAnswer}. */
export function fetchAnswer(response: Response): HttpAnswer {
  return new FetchAnswer(response);
}

/**
 * How the transport POSTs to `url`: its own `node:http` POST when `fetch` is the transport's
 * default and no option needs the web objects, else `fetch` (already under the redirect guard)
 * with the options' `requestInit`, `redirect: 'manual'` and the POST's own signal.
 */
export function postExchange(url: URL, options: StreamableHttpClientTransportOptions, fetch: typeof globalThis.fetch): PostExchange {
  const direct = options.fetch === undefined && options.requestInit === undefined && options.authProvider === undefined ? nodeDefaultPost(url) : undefined;
  if (direct !== undefined) return direct;
  const href = url.href;
  const requestInit = options.requestInit;
  // `redirect: 'manual'` already: the redirect guard passes this init on without a copy.
  return (headers, body, stop) => fetch(href, { ...requestInit, method: 'POST', headers, body, signal: stop.signal, redirect: 'manual' }).then(fetchAnswer);
}

/** The error for a refused answer whose body excerpt was read (`AuthRequiredError` for 401/403, else `TransportError`). */
export function errorForAnswer(method: string, url: string, answer: HttpAnswer, body: string): InstanceType<typeof TransportError> {
  return refusalError(method, url, answer.status, answer.statusText, answer.header('www-authenticate') ?? undefined, body);
}

/** The error for a 2xx answer whose content-type the transport cannot read (its cause carries the status). */
export function unexpectedContentType(method: string, url: string, answer: HttpAnswer, contentType: string): InstanceType<typeof TransportError> {
  return new TransportError(`${method} ${url} answered with an unexpected content-type ${JSON.stringify(contentType)}`, {
    cause: new HttpResponseError(method, url, answer.status, answer.statusText, '', undefined),
  });
}

/**
 * The JSON body of a POST's answer as text, bounded by `maxMessageSize` (default
 * {@link DEFAULT_MAX_MESSAGE_SIZE}): past it, the `MessageTooLargeError` its requests fail with;
 * a body that broke off reads as empty (its requests then get no answer).
 */
export function readJsonAnswer(answer: HttpAnswer, maxMessageSize: number | undefined, url: string): Promise<string | InstanceType<typeof MessageTooLargeError>> {
  return answer.text(maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE, `The JSON response from ${url}`).catch((error: unknown) => (error instanceof MessageTooLargeError ? error : ''));
}
