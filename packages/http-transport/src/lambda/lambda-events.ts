/**
 * The event and result shapes of AWS Lambda's HTTP integrations, described structurally (the
 * `@types/aws-lambda` shapes are assignable to them, see `lambda-events.test.ts`), and their
 * conversion to and from the web `Request` and `Response` the Streamable HTTP server speaks.
 *
 * - Payload format 2.0: Lambda Function URLs and API Gateway HTTP APIs. Repeated headers arrive
 *   joined with commas, cookies as their own array; the answer carries `cookies` apart.
 * - Payload format 1.0: API Gateway REST APIs (and HTTP APIs set to 1.0). Repeated headers and
 *   query parameters arrive in `multiValueHeaders` / `multiValueQueryStringParameters`; the
 *   answer may carry `multiValueHeaders`.
 *
 * Bodies are text, or base64 when `isBase64Encoded` is set (binary media types, compressed
 * bodies); both directions handle either.
 */

/** Header maps of the events: lower-case names under format 2.0, as sent under 1.0. */
export type LambdaHeaders = Readonly<Record<string, string | undefined>>;

/** An event of payload format 2.0 (Function URL, HTTP API). */
export interface LambdaHttpEventV2 {
  readonly version: '2.0' | (string & {});
  readonly rawPath: string;
  readonly rawQueryString: string;
  readonly cookies?: readonly string[] | undefined;
  readonly headers: LambdaHeaders;
  readonly body?: string | undefined;
  readonly isBase64Encoded: boolean;
  readonly requestContext: {
    readonly domainName?: string | undefined;
    readonly http: { readonly method: string; readonly sourceIp?: string | undefined };
  };
}

/** An event of payload format 1.0 (REST API). */
export interface LambdaHttpEventV1 {
  readonly version?: string | undefined;
  readonly httpMethod: string;
  readonly path: string;
  readonly headers: LambdaHeaders | null;
  readonly multiValueHeaders?: Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
  readonly queryStringParameters?: Readonly<Record<string, string | undefined>> | null | undefined;
  readonly multiValueQueryStringParameters?: Readonly<Record<string, readonly string[] | undefined>> | null | undefined;
  readonly body: string | null;
  readonly isBase64Encoded: boolean;
  readonly requestContext: {
    readonly domainName?: string | undefined;
    readonly identity?: { readonly sourceIp?: string | undefined } | undefined;
  };
}

/** Either payload format. */
export type LambdaHttpEvent = LambdaHttpEventV1 | LambdaHttpEventV2;

/** The answer of payload format 2.0. */
export interface LambdaHttpResultV2 {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

/** The answer of payload format 1.0. */
export interface LambdaHttpResultV1 {
  statusCode: number;
  headers: Record<string, string>;
  multiValueHeaders: Record<string, string[]>;
  body: string;
  isBase64Encoded: boolean;
}

/** Whether an event is of payload format 2.0. */
export function isEventV2(event: LambdaHttpEvent): event is LambdaHttpEventV2 {
  return 'rawPath' in event && typeof event.rawPath === 'string';
}

/** The client's address as the integration saw it. */
export function sourceIpOf(event: LambdaHttpEvent): string | undefined {
  return isEventV2(event) ? event.requestContext.http.sourceIp : event.requestContext.identity?.sourceIp;
}

function decodeBody(body: string | null | undefined, base64: boolean): Uint8Array | string | undefined {
  if (body === null || body === undefined || body === '') return undefined;
  return base64 ? Uint8Array.from(Buffer.from(body, 'base64')) : body;
}

function headersOfV1(event: LambdaHttpEventV1): Headers {
  const headers = new Headers();
  const multi = event.multiValueHeaders ?? {};
  for (const [name, values] of Object.entries(multi)) {
    // Cookies are one header with `; ` between pairs (RFC 6265 §5.4); the rest join with commas.
    if (values !== undefined && values.length > 0) headers.set(name, values.join(name.toLowerCase() === 'cookie' ? '; ' : ', '));
  }
  for (const [name, value] of Object.entries(event.headers ?? {})) {
    if (value !== undefined && !headers.has(name)) headers.set(name, value);
  }
  return headers;
}

function queryOfV1(event: LambdaHttpEventV1): string {
  const query = new URLSearchParams();
  const multi = event.multiValueQueryStringParameters ?? {};
  for (const [name, values] of Object.entries(multi)) for (const value of values ?? []) query.append(name, value);
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (value !== undefined && !query.has(name)) query.append(name, value);
  }
  return query.toString();
}

/**
 * The web `Request` an event describes. Its URL is `https://<Host><path>?<query>`: the Host the
 * client sent (the integration's domain when absent), so the server's Host check sees the name
 * the client used.
 */
export function requestFromEvent(event: LambdaHttpEvent, signal?: AbortSignal): Request {
  let method: string;
  let path: string;
  let query: string;
  let headers: Headers;
  if (isEventV2(event)) {
    method = event.requestContext.http.method;
    path = event.rawPath;
    query = event.rawQueryString;
    headers = new Headers();
    for (const [name, value] of Object.entries(event.headers)) if (value !== undefined) headers.set(name, value);
    if (event.cookies !== undefined && event.cookies.length > 0) headers.set('cookie', event.cookies.join('; '));
  } else {
    method = event.httpMethod;
    path = event.path;
    query = queryOfV1(event);
    headers = headersOfV1(event);
  }
  const host = headers.get('host') ?? event.requestContext.domainName ?? 'localhost';
  const url = new URL(`https://${host}`);
  url.pathname = path;
  url.search = query;
  const upper = method.toUpperCase();
  const body = upper === 'GET' || upper === 'HEAD' ? undefined : decodeBody(event.body, event.isBase64Encoded);
  return new Request(url, { method: upper, headers, ...(body === undefined ? {} : { body }), ...(signal === undefined ? {} : { signal }) });
}

/** Media types whose bodies go back as text; anything else is base64 (API Gateway's binary rule). */
function isTextual(contentType: string | null): boolean {
  if (contentType === null) return true;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return type.startsWith('text/') || type === 'application/json' || type.endsWith('+json') || type === 'application/javascript' || type.endsWith('+xml') || type === 'application/xml';
}

/** Response headers as one value per name (repeats joined with `, `), `set-cookie` apart. */
export function splitResponseHeaders(response: Response): { headers: Record<string, string>; cookies: string[] } {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  return { headers, cookies: response.headers.getSetCookie() };
}

/** A buffered answer of either payload format, from a `Response` whose body ends. */
export async function resultFromResponse(response: Response, format: '1.0' | '2.0'): Promise<LambdaHttpResultV1 | LambdaHttpResultV2> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const textual = isTextual(response.headers.get('content-type'));
  const body = textual ? new TextDecoder().decode(bytes) : Buffer.from(bytes).toString('base64');
  const { headers, cookies } = splitResponseHeaders(response);
  if (format === '2.0') return { statusCode: response.status, headers, ...(cookies.length > 0 ? { cookies } : {}), body, isBase64Encoded: !textual };
  return { statusCode: response.status, headers, multiValueHeaders: cookies.length > 0 ? { 'set-cookie': cookies } : {}, body, isBase64Encoded: !textual };
}
