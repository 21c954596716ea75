/**
 * The client side of the legacy HTTP+SSE transport (protocol revision 2024-11-05; deprecated
 * since 2025-03-26, MCP 2024-11-05 basic/transports §HTTP with SSE). The client GETs an SSE stream
 * whose first event,
 * `endpoint`, names the URI to POST every message to; server messages arrive as `message`
 * events on that stream. The stream is the connection: when it ends, the transport closes.
 *
 * Use it directly for servers that only speak the old transport, or let
 * {@link StreamableHttpClientTransport} fall back to it automatically.
 */
import { transportFetch } from './transport-fetch.js';
import {
  ConnectionClosedError,
  InvalidStateError,
  TransportError,
  parseJson,
  type JsonRpcMessage,
  type Transport,
  type TransportCloseInfo,
  type TransportSink,
  systemClock,
  type Clock,
} from '@statemcp/protocol';

import { errorForStatus, networkError, readBodyExcerpt } from './http-errors.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from './response-body.js';
import { buildHeaders, type HeadersOption } from './request-headers.js';
import { SseParser, readSseStream } from '../shared/sse-parse.js';

/** Options of {@link SseClientTransport}. */
export interface SseClientTransportOptions {
  /**
   * The `fetch` to use (a proxy-aware or instrumented one). Defaults to `nodeHttpFetch`
   * (`node:http` with keep-alive) on Node when no `requestInit` is given, else the global `fetch`.
   */
  fetch?: typeof fetch;
  /** Extra headers for the GET and every POST, e.g. `Authorization`. */
  headers?: HeadersOption;
  /** Extra `fetch` options (credentials, dispatcher, …) for every request. */
  requestInit?: Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'>;
  /** How long `start()` waits for the `endpoint` event. Default 10000 ms. */
  endpointTimeoutMs?: number;
  /**
   * Allow an `endpoint` on another origin than the SSE URL. Off by default: a stream that
   * redirects your messages elsewhere is refused.
   */
  allowCrossOriginEndpoint?: boolean;
  /**
   * The largest SSE event accepted from the server, in characters of its text. Default 16 MiB.
   * Past it the stream is cut and the transport closes with `MessageTooLargeError`.
   */
  maxMessageSize?: number;
  /** Timers: the protocol `Clock`; tests pass a `SimulatedClock`. */
  clock?: Clock;
}

type LegacyState =
  | { kind: 'new' }
  | { kind: 'connecting'; sink: TransportSink }
  | { kind: 'open'; sink: TransportSink; endpoint: URL }
  | { kind: 'closed' };

/**
 * Client transport for the legacy HTTP+SSE protocol.
 *
 * @example
 * ```ts
 * import { Client } from '@statemcp/client';
 * import { SseClientTransport } from '@statemcp/http-transport/client';
 *
 * const client = new Client({ name: 'demo', version: '1.0.0' });
 * await client.connect(new SseClientTransport(new URL('http://127.0.0.1:3000/sse')));
 * ```
 */
export class SseClientTransport implements Transport {
  readonly #url: URL;
  readonly #fetch: typeof fetch;
  readonly #options: SseClientTransportOptions;
  readonly #clock: Clock;
  readonly #lifetime = new AbortController();
  #state: LegacyState = { kind: 'new' };
  readonly canSendRequests = true;

  constructor(url: URL | string, options: SseClientTransportOptions = {}) {
    this.#url = new URL(url);
    this.#fetch = transportFetch(options.fetch, options.requestInit);
    this.#options = options;
    this.#clock = options.clock ?? systemClock;
  }

  /** Legacy HTTP+SSE has no session header; the session lives in the endpoint URI. */
  get sessionId(): undefined {
    return undefined;
  }

  /** The POST endpoint announced by the server, once known. */
  get endpoint(): URL | undefined {
    return this.#state.kind === 'open' ? new URL(this.#state.endpoint) : undefined;
  }

  /**
   * Opens the SSE stream and resolves once the `endpoint` event has arrived. Rejects with
   * `AuthRequiredError` (`@statemcp/protocol`) on 401/403 and {@link TransportError} for anything else.
   */
  async start(sink: TransportSink): Promise<void> {
    if (this.#state.kind !== 'new') throw new InvalidStateError('SseClientTransport was already started', this.#state.kind);
    this.#state = { kind: 'connecting', sink };
    const url = this.#url.href;
    let response: Response;
    try {
      response = await this.#fetch(url, {
        ...this.#options.requestInit,
        method: 'GET',
        headers: await buildHeaders(this.#options.headers, { accept: 'text/event-stream' }),
        signal: this.#lifetime.signal,
      });
    } catch (error) {
      this.#state = { kind: 'closed' };
      throw networkError('GET', url, error);
    }
    if (!response.ok) {
      this.#state = { kind: 'closed' };
      throw errorForStatus('GET', url, response, await readBodyExcerpt(response));
    }
    const contentType = response.headers.get('content-type') ?? '';
    if (!contentType.toLowerCase().includes('text/event-stream') || response.body === null) {
      this.#state = { kind: 'closed' };
      await response.body?.cancel().catch(() => undefined);
      throw new TransportError(`GET ${url} did not answer with an SSE stream (content-type ${JSON.stringify(contentType)})`);
    }

    const body = response.body;
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const timer = this.#clock.setTimeout(() => {
        fail(new TransportError(`No endpoint event from ${url} within ${this.#options.endpointTimeoutMs ?? 10_000} ms`));
        this.#lifetime.abort();
      }, this.#options.endpointTimeoutMs ?? 10_000);
      const fail = (error: Error): void => {
        if (settled) return;
        settled = true;
        this.#clock.clearTimeout(timer);
        this.#state = { kind: 'closed' };
        reject(error);
      };
      const limits = { maxEventSize: this.#options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE, source: url };
      const parser = new SseParser({
        onEvent: (event) => {
          if (event.type === 'endpoint') {
            if (settled) return;
            let endpoint: URL;
            try {
              endpoint = new URL(event.data.trim(), this.#url);
            } catch {
              fail(new TransportError(`The endpoint event carried an invalid URI: ${JSON.stringify(event.data)}`));
              this.#lifetime.abort();
              return;
            }
            if (endpoint.origin !== this.#url.origin && this.#options.allowCrossOriginEndpoint !== true) {
              fail(new TransportError(`Refusing endpoint ${endpoint.href}: its origin differs from ${this.#url.origin}`));
              this.#lifetime.abort();
              return;
            }
            settled = true;
            this.#clock.clearTimeout(timer);
            this.#state = { kind: 'open', sink, endpoint };
            resolve();
            return;
          }
          if (event.type !== 'message' || this.#state.kind !== 'open') return;
          const parsed = parseJson(event.data);
          if (parsed.ok) sink.onMessage(parsed.value);
          else sink.onMalformed?.(event.data, parsed.reason);
        },
      }, limits);
      readSseStream(body, parser, this.#lifetime.signal).then(
        () => {
          fail(new TransportError(`The SSE stream from ${url} ended before the endpoint event`));
          this.#closeWith({ initiator: 'remote', details: { reason: 'sse-stream-ended' } });
        },
        (error: unknown) => {
          if (this.#lifetime.signal.aborted) return;
          const wrapped = networkError('GET', url, error);
          fail(wrapped);
          this.#closeWith({ initiator: 'error', error: wrapped });
        },
      );
    });
  }

  /** POSTs one message to the announced endpoint. */
  async send(message: JsonRpcMessage): Promise<void> {
    const state = this.#state;
    if (state.kind === 'closed') throw new ConnectionClosedError('The HTTP+SSE transport is closed');
    if (state.kind !== 'open') throw new InvalidStateError('The HTTP+SSE transport is not started', state.kind);
    const url = state.endpoint.href;
    let response: Response;
    try {
      response = await this.#fetch(url, {
        ...this.#options.requestInit,
        method: 'POST',
        headers: await buildHeaders(this.#options.headers, { 'content-type': 'application/json' }),
        body: JSON.stringify(message),
        signal: this.#lifetime.signal,
      });
    } catch (error) {
      throw networkError('POST', url, error);
    }
    if (!response.ok) {
      const error = errorForStatus('POST', url, response, await readBodyExcerpt(response));
      state.sink.onError?.(error);
      throw error;
    }
    await response.body?.cancel().catch(() => undefined);
  }

  /** Closes the stream and fires `onClose` once. Idempotent. */
  async close(): Promise<void> {
    this.#closeWith({ initiator: 'local' });
  }

  /** Same as {@link close}: the legacy transport has no graceful step. */
  async terminate(): Promise<void> {
    this.#closeWith({ initiator: 'local' });
  }

  #closeWith(info: TransportCloseInfo): void {
    const state = this.#state;
    if (state.kind === 'closed' || state.kind === 'new') {
      this.#state = { kind: 'closed' };
      this.#lifetime.abort();
      return;
    }
    this.#state = { kind: 'closed' };
    this.#lifetime.abort();
    if (state.kind === 'open') state.sink.onClose(info);
  }
}
