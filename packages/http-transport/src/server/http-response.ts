/**
 * Small builders for the HTTP answers of the server: JSON-RPC error bodies (carrying the
 * request's id when it is known, `"id": null` otherwise, JSON-RPC 2.0 §5), JSON bodies and
 * empty replies. Everything is a web `Response`;
 * the node:http front door writes it out.
 */
import { type RequestId } from '@statemcp/protocol';
import { errorResponse as jsonRpcError } from '@statemcp/protocol/internal';
import type { ServerResponse } from 'node:http';
import type { SseConnection } from './sse-connection.js';

/**
 * Implementation-defined server error codes (JSON-RPC reserves -32000…-32099 for them),
 * used only in HTTP error bodies that no request handler produced.
 */
export const HttpErrorCode = {
  /** The session was closed while the request waited, or the server is shutting down. */
  SessionClosed: -32000,
  /** Unknown, expired or terminated session id (HTTP 404). */
  SessionNotFound: -32001,
  /** Host/Origin refused, authentication refused, or an HTTP-level rule broken. */
  Refused: -32000,
} as const;

/**
 * What the server's core answers a request with: a finished web `Response`, or an open SSE
 * connection, which each front door carries its own way (node:http writes it straight to the
 * socket, the fetch handler returns its `Response`).
 */
export type HttpAnswer = Response | SseConnection | JsonAnswer | TextAnswer;

/**
 * The headers of an answer that carries none beyond its content type (a stateless POST's): one
 * shared, frozen record, not a literal per request. Readers only ever copy or iterate it.
 */
export const NO_HEADERS: Record<string, string> = Object.freeze({});

/** The answer as a web `Response` (the fetch front door). */
export function toResponse(answer: HttpAnswer): Response {
  return answer instanceof Response ? answer : answer.response;
}

/**
 * A request's JSON answer (`enableJsonResponse`, and every 2026-07-28 answer): its status,
 * headers and body text. The node:http front door writes it with one `end()` (`attach`); the
 * web `Response` is built only when a fetch front door (or a step that edits the answer, such
 * as setting the session id on an `initialize` answer) asks for it: node:http never reads it,
 * and a web stream, undici's `Response` and its headers are a large share of a small answer.
 */
export class JsonAnswer {
  /** The HTTP status (200, or the status a 2026-07-28 error maps to). */
  readonly status: number;
  /** The JSON text of the body. */
  readonly text: string;
  readonly #headers: Record<string, string>;
  #response: Response | undefined;

  /** `headers` are added to `Content-Type: application/json` (the caller's own object, not copied). */
  constructor(body: unknown, status: number, headers: Record<string, string>) {
    this.text = JSON.stringify(body);
    this.status = status;
    this.#headers = headers;
  }

  /** The answer as a web `Response` (built once; its body is still written with one `end()` on node:http). */
  get response(): Response {
    if (this.#response === undefined) {
      this.#response = new Response(this.text, { status: this.status, headers: { 'content-type': 'application/json', ...this.#headers } });
      bodyTexts.set(this.#response, this.text);
    }
    return this.#response;
  }

  /**
   * Writes the answer to a node:http response, with its length, in one `end()` (a no-op when the
   * client has left). The headers go to `writeHead` as one flat list: node:http formats them
   * straight into the head, where `setHeader` would validate, lower-case and store each in the
   * response's header table first.
   */
  attach(res: ServerResponse): void {
    const built = this.#response;
    const head: string[] = ['content-type', 'application/json'];
    if (built === undefined) {
      for (const name in this.#headers) head.push(name, this.#headers[name] as string);
    } else {
      // Someone read `response` and may have edited its headers: those are the answer's now.
      head.length = 0;
      built.headers.forEach((value, name) => head.push(name, value));
    }
    head.push('content-length', String(Buffer.byteLength(this.text)));
    res.writeHead(this.status, head).end(this.text);
  }
}

/**
 * The body text of the JSON answers built here, by `Response`: the node:http front door
 * writes that string with one `end()` and a content length instead of reading the web stream
 * back chunk by chunk (a reader, a promise per read and a chunked encoding per answer). A map,
 * not a `Response` subclass: frameworks that swap the global `Response` (Hono's node server)
 * must still see a plain one.
 */
const bodyTexts = new WeakMap<Response, string>();

/** The body of a JSON answer built here, while nothing has read its stream. */
export function unreadBodyText(response: Response): string | undefined {
  return response.bodyUsed ? undefined : bodyTexts.get(response);
}

/**
 * A `Response` whose whole body is `text`, known up front (a relayed answer that arrived
 * complete): the node:http front door writes it like a JSON answer, with its length, in one
 * `end()`.
 */
export function textResponse(text: string, status: number, headers: Headers): Response {
  const response = new Response(text, { status, headers });
  bodyTexts.set(response, text);
  return response;
}

/**
 * An answer whose status, headers and whole body are known up front (a relayed answer that
 * arrived complete, `relay-exchange.ts`): node:http writes it with its length in one `end()`,
 * and the web `Response` (undici's, with its `Headers`) is built only for a fetch front door.
 */
export class TextAnswer {
  readonly status: number;
  /** The headers, as name and value pairs (a name may repeat: `set-cookie`). */
  readonly headers: readonly (readonly [string, string])[];
  readonly text: string;
  #response: Response | undefined;

  constructor(status: number, headers: readonly (readonly [string, string])[], text: string) {
    this.status = status;
    this.headers = headers;
    this.text = text;
  }

  /** The answer as a web `Response` (built once). */
  get response(): Response {
    if (this.#response === undefined) {
      const headers = new Headers();
      for (const [name, value] of this.headers) headers.append(name, value);
      this.#response = textResponse(this.text, this.status, headers);
    }
    return this.#response;
  }

  /** Writes the answer to a node:http response, with its length, in one `end()` (a no-op when the client has left). */
  attach(res: ServerResponse): void {
    const head: string[] = [];
    for (const [name, value] of this.headers) if (name !== 'content-length') head.push(name, value);
    head.push('content-length', String(Buffer.byteLength(this.text)));
    if (this.status === 413) head.push('connection', 'close');
    res.writeHead(this.status, head).end(this.text);
  }
}

/** A JSON body with `Content-Type: application/json`. */
export function jsonResponse(body: unknown, status = 200, headers?: Record<string, string>): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { 'content-type': 'application/json', ...headers } });
  bodyTexts.set(response, text);
  return response;
}

/** An HTTP error whose body is a JSON-RPC error response (`"id": null` unless the request's id is given). */
export function errorResponse(
  status: number,
  code: number,
  message: string,
  options: { id?: RequestId | null | undefined; headers?: Record<string, string>; data?: unknown } = {},
): Response {
  const body = jsonRpcError(options.id, options.data === undefined ? { code, message } : { code, message, data: options.data });
  return jsonResponse(body, status, options.headers);
}

/** A reply without a body (202 Accepted, 200 after DELETE, 405 with `Allow`). */
export function emptyResponse(status: number, headers?: Record<string, string>): Response {
  return new Response(null, { status, headers: headers ?? {} });
}

/**
 * The HTTP status of a 2026-07-28 answer that is a JSON-RPC error (MCP 2026-07-28
 * basic/transports/streamable-http): 404 for an
 * unknown method, 400 for a malformed request, bad params or `_meta`, a header mismatch, a
 * missing client capability or an unsupported version; 200 for anything else (an error the
 * request's handler produced is still a delivered answer).
 */
export function modernErrorStatus(code: number): number {
  if (code === -32601) return 404;
  if (code === -32600 || code === -32602 || code === -32020 || code === -32021 || code === -32022) return 400;
  return 200;
}
