/**
 * A local stand-in for AWS Lambda's HTTP integrations: a node:http server on 127.0.0.1 that
 * turns each request into the event the chosen integration would deliver, invokes a handler
 * with a Lambda-shaped context, and writes its answer back as the integration would.
 *
 *   function-url-streaming  payload 2.0, the handler wrapped by `streamifyResponse`; the answer
 *                           is a stream: a JSON prelude (status, headers, cookies), eight NUL
 *                           bytes, then the body as written — the framing of the Node.js
 *                           runtime's `awslambda.HttpResponseStream.from`
 *   function-url, http-api  payload 2.0, buffered: repeated headers joined with commas,
 *                           cookies in `cookies`, the answer's `cookies` as `Set-Cookie`
 *   rest-api                payload 1.0, buffered: `multiValueHeaders` and
 *                           `multiValueQueryStringParameters`, stage `prod`
 *
 * The emulator's own address stands for the integration's domain: a request naming it as
 * `Host` reaches the handler with the domain name instead (and an `Origin` naming it, with
 * `https://` and the domain), as a request to the real endpoint would. Any other `Host` (one that would not even route to the function on AWS) is passed on
 * unchanged, so the server's Host check still sees it. It adds `X-Forwarded-For` /
 * `X-Forwarded-Proto` like the integrations. Types are structural: this helper does not depend
 * on the adapter it exercises.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';

/** Which integration the emulator plays. */
export type LambdaIntegration = 'function-url-streaming' | 'function-url' | 'http-api' | 'rest-api';

/** The metadata `HttpResponseStream.from` takes. */
export interface EmulatedStreamMetadata {
  statusCode: number;
  headers?: Record<string, string>;
  cookies?: string[];
}

const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const DELIMITER = Buffer.alloc(8);

/** The `awslambda` global of the Node.js runtime, as the emulator plays it. */
export const emulatedAwsLambda = {
  /** Marks `handler` as a response-streaming handler (the runtime does the same) and returns it. */
  streamifyResponse<H extends object>(handler: H): H {
    Object.defineProperty(handler, STREAMING, { value: 'response' });
    return handler;
  },
  HttpResponseStream: {
    /** Writes the prelude and its delimiter, then hands back the stream for the body. */
    from(stream: Writable, metadata: EmulatedStreamMetadata): Writable {
      stream.write(JSON.stringify(metadata));
      stream.write(DELIMITER);
      return stream;
    },
  },
};

/** Options of {@link startLambdaEmulator}. */
export interface LambdaEmulatorOptions {
  readonly integration: LambdaIntegration;
  /** The deployed handler: buffered `(event, context) => result`, or one wrapped by `emulatedAwsLambda.streamifyResponse`. */
  readonly handler: unknown;
  /** Deliver every request body base64-encoded (`isBase64Encoded: true`), as for binary media types. */
  readonly base64Bodies?: boolean;
  /** The integration's domain, sent as `Host` (default `abc123.lambda-url.us-east-1.on.aws`). */
  readonly domainName?: string;
  /** The loopback port to listen on (default: a free one). */
  readonly port?: number;
}

/** A running emulator. */
export interface LambdaEmulator {
  readonly url: URL;
  /** How many events the handler was invoked with. */
  readonly invocations: number;
  close(): Promise<void>;
}

type Buffered = (event: unknown, context: unknown) => Promise<Record<string, unknown>>;
type Streaming = (event: unknown, responseStream: Writable, context: unknown) => Promise<void>;

function lambdaContext(): Record<string, unknown> {
  const deadline = Date.now() + 900_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: 'statemcp-emulated',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:statemcp-emulated',
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: '/aws/lambda/statemcp-emulated',
    logStreamName: '2026/12/06/[$LATEST]emulated',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** The request's headers as the integration sees them: the emulator's own `Host` replaced, forwarding headers added. */
function integrationHeaders(req: IncomingMessage, domainName: string, port: number): [string, string][] {
  const own = (authority: string): boolean => authority === `127.0.0.1:${port}` || authority === `localhost:${port}`;
  const pairs: [string, string][] = [];
  for (let index = 0; index < req.rawHeaders.length; index += 2) {
    const name = (req.rawHeaders[index] ?? '').toLowerCase();
    const value = req.rawHeaders[index + 1] ?? '';
    if (name === 'origin' && own(value.replace(/^http:\/\//, ''))) pairs.push([name, `https://${domainName}`]);
    else if (name !== 'host' && name !== 'connection') pairs.push([name, value]);
  }
  const host = req.headers.host;
  const ownAddress = host === undefined || own(host);
  pairs.push(['host', ownAddress ? domainName : host], ['x-forwarded-for', req.socket.remoteAddress ?? '127.0.0.1'], ['x-forwarded-proto', 'https']);
  return pairs;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function eventV2(req: IncomingMessage, url: URL, headers: [string, string][], body: Buffer, base64: boolean, domainName: string): Record<string, unknown> {
  const joined: Record<string, string> = {};
  const cookies: string[] = [];
  for (const [name, value] of headers) {
    if (name === 'cookie') cookies.push(...value.split(/;\s*/));
    else joined[name] = joined[name] === undefined ? value : `${joined[name]},${value}`;
  }
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: '$default',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies.length > 0 ? { cookies } : {}),
    headers: joined,
    ...(url.search === '' ? {} : { queryStringParameters: Object.fromEntries(url.searchParams) }),
    requestContext: {
      accountId: '123456789012',
      apiId: domainName.split('.')[0],
      domainName,
      domainPrefix: domainName.split('.')[0],
      http: { method: req.method ?? 'GET', path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: joined['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: '$default',
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(body.length === 0 ? {} : { body: base64 ? body.toString('base64') : body.toString('utf8') }),
    isBase64Encoded: base64 && body.length > 0,
  };
}

function eventV1(req: IncomingMessage, url: URL, headers: [string, string][], body: Buffer, base64: boolean, domainName: string): Record<string, unknown> {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const [name, value] of headers) {
    single[name] = value;
    (multi[name] ??= []).push(value);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    (multiQuery[name] ??= []).push(value);
  }
  const hasQuery = url.search !== '';
  const sourceIp = req.socket.remoteAddress ?? '127.0.0.1';
  return {
    resource: '/{proxy+}',
    path: url.pathname,
    httpMethod: req.method ?? 'GET',
    headers: single,
    multiValueHeaders: multi,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: { proxy: url.pathname.slice(1) },
    stageVariables: null,
    requestContext: {
      accountId: '123456789012',
      apiId: domainName.split('.')[0],
      authorizer: null,
      domainName,
      httpMethod: req.method ?? 'GET',
      identity: { sourceIp, userAgent: single['user-agent'] ?? null },
      path: `/prod${url.pathname}`,
      protocol: 'HTTP/1.1',
      requestId: randomUUID(),
      requestTimeEpoch: Date.now(),
      resourceId: 'abc123',
      resourcePath: '/{proxy+}',
      stage: 'prod',
    },
    body: body.length === 0 ? null : base64 ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: base64 && body.length > 0,
  };
}

/** Writes a buffered answer (either payload format) to `res`. */
function writeBuffered(res: ServerResponse, result: Record<string, unknown>): void {
  const headers: Record<string, string | string[]> = { ...(result['headers'] as Record<string, string> | undefined) };
  for (const [name, values] of Object.entries((result['multiValueHeaders'] as Record<string, string[]> | undefined) ?? {})) headers[name] = values;
  const cookies = result['cookies'] as string[] | undefined;
  if (cookies !== undefined && cookies.length > 0) headers['set-cookie'] = cookies;
  const body = typeof result['body'] === 'string' ? Buffer.from(result['body'], result['isBase64Encoded'] === true ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(Number(result['statusCode'] ?? 200), headers);
  res.end(body);
}

/** The response stream a streaming handler writes to: parses the prelude, then streams the body to `res`. */
function responseStreamFor(res: ServerResponse): Writable {
  let pending: Buffer | undefined = Buffer.alloc(0);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      if (pending === undefined) {
        if (res.write(chunk)) callback();
        else res.once('drain', () => callback());
        return;
      }
      pending = Buffer.concat([pending, Buffer.from(chunk)]);
      const at = pending.indexOf(DELIMITER);
      if (at === -1) return callback();
      const metadata = JSON.parse(pending.subarray(0, at).toString('utf8')) as EmulatedStreamMetadata;
      const rest = pending.subarray(at + DELIMITER.length);
      pending = undefined;
      const headers: Record<string, string | string[]> = { ...metadata.headers };
      if (metadata.cookies !== undefined && metadata.cookies.length > 0) headers['set-cookie'] = metadata.cookies;
      res.writeHead(metadata.statusCode, headers);
      res.flushHeaders();
      if (rest.length === 0 || res.write(rest)) callback();
      else res.once('drain', () => callback());
    },
    final(callback) {
      res.end();
      callback();
    },
  });
  // The client went away: the runtime closes the handler's stream.
  res.once('close', () => stream.destroy());
  return stream;
}

/**
 * Starts the emulator on a free loopback port.
 *
 * @example
 * ```ts
 * const emulator = await startLambdaEmulator({ integration: 'rest-api', handler: createLambdaHandler(mcp) });
 * await client.connect(new StreamableHttpClientTransport(new URL('/mcp', emulator.url)));
 * ```
 */
export async function startLambdaEmulator(options: LambdaEmulatorOptions): Promise<LambdaEmulator> {
  const domainName = options.domainName ?? 'abc123.lambda-url.us-east-1.on.aws';
  const streaming = options.integration === 'function-url-streaming';
  if (streaming !== (typeof options.handler === 'function' && STREAMING in options.handler)) {
    throw new Error(streaming ? 'the function-url-streaming integration needs a handler wrapped by streamifyResponse' : `the ${options.integration} integration needs a buffered handler`);
  }
  let invocations = 0;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'https://emulated');
      const headers = integrationHeaders(req, domainName, (server.address() as AddressInfo).port);
      const body = await readBody(req);
      const base64 = options.base64Bodies === true;
      const event = options.integration === 'rest-api' ? eventV1(req, url, headers, body, base64, domainName) : eventV2(req, url, headers, body, base64, domainName);
      invocations += 1;
      if (streaming) {
        const stream = responseStreamFor(res);
        await (options.handler as Streaming)(event, stream, lambdaContext());
        if (!stream.writableEnded) stream.end();
      } else {
        writeBuffered(res, await (options.handler as Buffered)(event, lambdaContext()));
      }
    })().catch((error: unknown) => {
      // An invocation error: the integrations answer 502 (API Gateway) or 500 (Function URLs).
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: 'Internal Server Error', error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    get invocations() {
      return invocations;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
