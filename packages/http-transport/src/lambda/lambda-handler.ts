/**
 * AWS Lambda doors of the Streamable HTTP server: each turns an integration's event into the
 * web `Request` of {@link StreamableHttpServer.handleFetch} and its `Response` back into what
 * the integration expects.
 *
 * Two kinds of integration:
 *
 *   buffered   API Gateway REST (1.0) and HTTP APIs (2.0), Function URLs in BUFFERED mode:
 *              the answer goes back whole. POST answers are read to their end (a JSON body,
 *              or an SSE stream that ends with the response); a GET event stream never ends,
 *              so it is refused with 405 — MCP 2025-11-25, Transports §Listening for Messages
 *              from the Server lets a server without a GET stream answer so.
 *   streaming  Function URLs in RESPONSE_STREAM mode (and REST APIs with response streaming):
 *              the handler is wrapped in the runtime's `awslambda.streamifyResponse`, the
 *              status and headers go first through `awslambda.HttpResponseStream.from`, then
 *              the body as the server writes it — SSE streams, GET streams and resumption
 *              with `Last-Event-ID` included.
 *
 * A Lambda instance keeps its memory between invocations but may be replaced at any time:
 * stateless servers (`stateless: true`, with `enableJsonResponse` on buffered integrations)
 * fit every integration; sessions need one warm instance or a shared store (`cluster`).
 */
import type { Writable } from 'node:stream';

import { HttpErrorCode, errorResponse } from '../server/http-response.js';
import type { StreamableHttpServer } from '../server/server-options.js';
import {
  isEventV2,
  requestFromEvent,
  resultFromResponse,
  sourceIpOf,
  splitResponseHeaders,
  type LambdaHttpEvent,
  type LambdaHttpResultV1,
  type LambdaHttpResultV2,
} from './lambda-events.js';

/** What `awslambda.HttpResponseStream.from` takes: the status and headers of a streamed answer. */
export interface LambdaStreamMetadata {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
}

/** The `awslambda` global of the Lambda Node.js runtime, as far as response streaming needs it. */
export interface AwsLambdaRuntime {
  /**
   * Wraps a streaming handler for the runtime (Function URLs in `RESPONSE_STREAM` mode).
   *
   * @typeParam H - the handler: `(event, responseStream, context) => Promise<void>`.
   */
  streamifyResponse<H extends (event: never, responseStream: Writable, context: never) => Promise<void>>(handler: H): unknown;
  /** The runtime's response stream factory. */
  readonly HttpResponseStream: {
    /** The stream to write the body to, once the status and headers in `metadata` are sent. */
    from(responseStream: Writable, metadata: LambdaStreamMetadata): Writable;
  };
}

/** Options of {@link createStreamingLambdaHandler}. */
export interface StreamingLambdaOptions {
  /** The runtime's `awslambda` global (default: `globalThis.awslambda`); local runners and tests pass their own. */
  awslambda?: AwsLambdaRuntime;
}

/** A buffered Lambda handler: one event in, one whole answer out. */
export type LambdaHandler = (event: LambdaHttpEvent, context?: unknown) => Promise<LambdaHttpResultV1 | LambdaHttpResultV2>;

/** The inner handler {@link createStreamingLambdaHandler} hands to `streamifyResponse`. */
export type StreamingLambdaHandler = (event: LambdaHttpEvent, responseStream: Writable, context?: unknown) => Promise<void>;

const GET_STREAM_REFUSAL =
  'This endpoint runs on a buffered AWS Lambda integration, which cannot carry an open event stream: ' +
  'GET streams need response streaming (createStreamingLambdaHandler on a Function URL with invoke mode RESPONSE_STREAM).';

/** The 405 a buffered integration answers a GET event stream with (with `Allow`, per RFC 9110 §15.5.6). */
function getStreamRefusal(): Response {
  return errorResponse(405, HttpErrorCode.Refused, GET_STREAM_REFUSAL, { headers: { allow: 'POST, DELETE' } });
}

/** A GET that names `text/event-stream` in its `Accept`: the event stream a buffered answer cannot hold. */
function asksForEventStream(request: Request): boolean {
  return request.method === 'GET' && (request.headers.get('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * A handler for buffered integrations: API Gateway REST APIs (payload 1.0), HTTP APIs and
 * Function URLs (payload 2.0). It answers in the payload format of the event.
 *
 * @example
 * ```ts
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createLambdaHandler } from '@statemcp/http-transport/lambda';
 *
 * const server = new McpServer({ name: 'lambda-demo', version: '1.0.0' });
 * server.registerTool('hello', { description: 'Greets' }, async () => ({ content: [{ type: 'text', text: 'hello' }] }));
 * const mcp = createStreamableHttpServer({
 *   stateless: true,
 *   enableJsonResponse: true,
 *   allowedHosts: ['abc123.execute-api.eu-west-1.amazonaws.com'],
 *   connect: (transport) => server.connect(transport),
 * });
 * export const handler = createLambdaHandler(mcp);
 * ```
 */
export function createLambdaHandler(mcp: StreamableHttpServer): LambdaHandler {
  return async (event) => {
    const format = isEventV2(event) ? '2.0' : '1.0';
    const request = requestFromEvent(event);
    if (asksForEventStream(request)) return resultFromResponse(getStreamRefusal(), format);
    const remoteAddress = sourceIpOf(event);
    const response = await mcp.handleFetch(request, remoteAddress === undefined ? {} : { remoteAddress });
    if (request.method === 'GET' && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      // An `Accept: */*` GET the server answered with a stream: release it rather than wait for its end.
      await response.body?.cancel().catch(() => undefined);
      return resultFromResponse(getStreamRefusal(), format);
    }
    return resultFromResponse(response, format);
  };
}

/** Waits until `stream` can take more, or is gone; true when it can. */
function drained(stream: Writable): Promise<boolean> {
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    stream.once('drain', onDrain);
    stream.once('close', onClose);
  });
}

/** Copies `body` into `stream` with backpressure; stops reading (cancelling the body) once the stream is gone. */
async function pump(body: ReadableStream<Uint8Array> | null, stream: Writable): Promise<void> {
  if (body !== null) {
    const reader = body.getReader();
    try {
      for (;;) {
        if (stream.destroyed) {
          await reader.cancel();
          return;
        }
        const { done, value } = await reader.read();
        if (done) break;
        if (!stream.write(value) && !(await drained(stream))) {
          await reader.cancel();
          return;
        }
      }
    } finally {
      reader.releaseLock();
    }
  }
  if (stream.destroyed || stream.writableEnded) return;
  await new Promise<void>((resolve) => stream.end(resolve));
}

/**
 * The handler before `streamifyResponse`: what {@link createStreamingLambdaHandler} wraps. Use it
 * directly only where something else plays the runtime's part (a local runner).
 */
export function streamingHandlerFor(mcp: StreamableHttpServer, runtime: Pick<AwsLambdaRuntime, 'HttpResponseStream'>): StreamingLambdaHandler {
  return async (event, responseStream) => {
    // The client going away closes the response stream: the server hears it as the request's abort.
    const abort = new AbortController();
    responseStream.once('close', () => abort.abort());
    const remoteAddress = sourceIpOf(event);
    const response = await mcp.handleFetch(requestFromEvent(event, abort.signal), remoteAddress === undefined ? {} : { remoteAddress });
    const { headers, cookies } = splitResponseHeaders(response);
    const metadata: LambdaStreamMetadata = cookies.length > 0 ? { statusCode: response.status, headers, cookies } : { statusCode: response.status, headers };
    await pump(response.body, runtime.HttpResponseStream.from(responseStream, metadata));
  };
}

/**
 * A handler for integrations that stream (Function URLs with invoke mode `RESPONSE_STREAM`):
 * SSE answers, GET streams and their resumption reach the client as the server writes them.
 * Throws at once when no `awslambda` runtime is there to stream through.
 *
 * @example
 * ```ts
 * import { McpServer } from '@statemcp/server';
 * import { createStreamableHttpServer } from '@statemcp/http-transport/server';
 * import { createStreamingLambdaHandler } from '@statemcp/http-transport/lambda';
 *
 * const server = new McpServer({ name: 'lambda-demo', version: '1.0.0' });
 * const mcp = createStreamableHttpServer({
 *   stateless: true,
 *   allowedHosts: ['abc123.lambda-url.eu-west-1.on.aws'],
 *   connect: (transport) => server.connect(transport),
 * });
 * export const handler = createStreamingLambdaHandler(mcp);
 * ```
 */
export function createStreamingLambdaHandler(mcp: StreamableHttpServer, options: StreamingLambdaOptions = {}): unknown {
  const runtime = options.awslambda ?? (globalThis as unknown as { awslambda?: AwsLambdaRuntime }).awslambda;
  if (runtime === undefined) {
    throw new Error(
      'createStreamingLambdaHandler needs the `awslambda` global of the Lambda Node.js runtime (response streaming); ' +
        'outside Lambda pass options.awslambda, or use createLambdaHandler for buffered integrations.',
    );
  }
  return runtime.streamifyResponse(streamingHandlerFor(mcp, runtime));
}
