import type {
  APIGatewayProxyEvent,
  APIGatewayProxyEventV2,
  APIGatewayProxyHandler,
  APIGatewayProxyHandlerV2,
  Context,
  LambdaFunctionURLEvent,
  LambdaFunctionURLHandler,
} from 'aws-lambda';
import { describe, expect, expectTypeOf, it } from 'vitest';

import { createLambdaHandler, type LambdaHandler } from './lambda-handler.js';
import { requestFromEvent, resultFromResponse, type LambdaHttpEvent } from './lambda-events.js';

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } };

/** A Function URL event as Lambda delivers it (payload 2.0), the body base64-encoded. */
const functionUrlEvent: LambdaFunctionURLEvent = {
  version: '2.0',
  routeKey: '$default',
  rawPath: '/mcp',
  rawQueryString: 'a=1&a=2',
  cookies: ['session=abc', 'theme=dark'],
  headers: { host: 'abc123.lambda-url.eu-west-1.on.aws', 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'x-multi': 'one,two' },
  queryStringParameters: { a: '1,2' },
  requestContext: {
    accountId: '123456789012',
    apiId: 'abc123',
    domainName: 'abc123.lambda-url.eu-west-1.on.aws',
    domainPrefix: 'abc123',
    http: { method: 'POST', path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' },
    requestId: 'r-1',
    routeKey: '$default',
    stage: '$default',
    time: '06/Dec/2026:22:00:00 +0000',
    timeEpoch: 1_796_594_400_000,
  },
  body: Buffer.from(JSON.stringify(initialize)).toString('base64'),
  isBase64Encoded: true,
};

/** A REST API event (payload 1.0) with repeated headers and query parameters. */
const restEvent: APIGatewayProxyEvent = {
  resource: '/{proxy+}',
  path: '/mcp',
  httpMethod: 'POST',
  headers: { Host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'Content-Type': 'application/json', 'X-Multi': 'two', Cookie: 'b=2' },
  multiValueHeaders: {
    Host: ['abc123.execute-api.eu-west-1.amazonaws.com'],
    'Content-Type': ['application/json'],
    'X-Multi': ['one', 'two'],
    Cookie: ['a=1', 'b=2'],
  },
  queryStringParameters: { tag: 'y' },
  multiValueQueryStringParameters: { tag: ['x', 'y'] },
  pathParameters: { proxy: 'mcp' },
  stageVariables: null,
  requestContext: {
    accountId: '123456789012',
    apiId: 'abc123',
    authorizer: null,
    domainName: 'abc123.execute-api.eu-west-1.amazonaws.com',
    httpMethod: 'POST',
    identity: {
      accessKey: null,
      accountId: null,
      apiKey: null,
      apiKeyId: null,
      caller: null,
      clientCert: null,
      cognitoAuthenticationProvider: null,
      cognitoAuthenticationType: null,
      cognitoIdentityId: null,
      cognitoIdentityPoolId: null,
      principalOrgId: null,
      sourceIp: '198.51.100.9',
      user: null,
      userAgent: 'test',
      userArn: null,
    },
    path: '/prod/mcp',
    protocol: 'HTTP/1.1',
    requestId: 'r-2',
    requestTimeEpoch: 1_796_594_400_000,
    resourceId: 'res',
    resourcePath: '/{proxy+}',
    stage: 'prod',
  },
  body: JSON.stringify(initialize),
  isBase64Encoded: false,
};

describe('requestFromEvent', () => {
  it('payload 2.0: decodes a base64 body, keeps the raw query, joins cookies into one header', async () => {
    const request = requestFromEvent(functionUrlEvent);
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://abc123.lambda-url.eu-west-1.on.aws/mcp?a=1&a=2');
    expect(request.headers.get('cookie')).toBe('session=abc; theme=dark');
    expect(request.headers.get('x-multi')).toBe('one,two');
    expect(await request.json()).toEqual(initialize);
  });

  it('payload 1.0: repeated headers and query parameters from the multi-value maps', async () => {
    const request = requestFromEvent(restEvent);
    expect(request.url).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/mcp?tag=x&tag=y');
    expect(request.headers.get('x-multi')).toBe('one, two');
    expect(request.headers.get('cookie')).toBe('a=1; b=2');
    expect(await request.json()).toEqual(initialize);
  });

  it('payload 1.0 without multi-value maps, a base64 body, and GET without a body', async () => {
    const bare: APIGatewayProxyEvent = { ...restEvent, multiValueHeaders: {}, multiValueQueryStringParameters: null, body: Buffer.from('{"x":1}').toString('base64'), isBase64Encoded: true };
    const request = requestFromEvent(bare);
    expect(request.headers.get('x-multi')).toBe('two');
    expect(request.url).toBe('https://abc123.execute-api.eu-west-1.amazonaws.com/mcp?tag=y');
    expect(await request.text()).toBe('{"x":1}');
    const get = requestFromEvent({ ...bare, httpMethod: 'GET' });
    expect(get.body).toBeNull();
  });
});

describe('resultFromResponse', () => {
  it('payload 2.0: text bodies as text, cookies apart, repeated headers joined', async () => {
    const headers = new Headers({ 'content-type': 'application/json', vary: 'a' });
    headers.append('vary', 'b');
    headers.append('set-cookie', 'x=1');
    headers.append('set-cookie', 'y=2');
    const result = await resultFromResponse(new Response('{"ok":true}', { status: 200, headers }), '2.0');
    expect(result).toEqual({ statusCode: 200, headers: { 'content-type': 'application/json', vary: 'a, b' }, cookies: ['x=1', 'y=2'], body: '{"ok":true}', isBase64Encoded: false });
  });

  it('payload 1.0: binary bodies in base64, cookies in multiValueHeaders', async () => {
    const headers = new Headers({ 'content-type': 'application/octet-stream', 'set-cookie': 'x=1' });
    const result = await resultFromResponse(new Response(new Uint8Array([0, 255, 1]), { status: 201, headers }), '1.0');
    expect(result).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'application/octet-stream' },
      multiValueHeaders: { 'set-cookie': ['x=1'] },
      body: Buffer.from([0, 255, 1]).toString('base64'),
      isBase64Encoded: true,
    });
  });
});

describe('the handler types', () => {
  it('accepts the @types/aws-lambda events and fits their handler types', () => {
    expectTypeOf<APIGatewayProxyEvent>().toExtend<LambdaHttpEvent>();
    expectTypeOf<APIGatewayProxyEventV2>().toExtend<LambdaHttpEvent>();
    expectTypeOf<LambdaFunctionURLEvent>().toExtend<LambdaHttpEvent>();
    expectTypeOf<LambdaHandler>().toExtend<(event: APIGatewayProxyEvent, context: Context) => ReturnType<APIGatewayProxyHandler> | Promise<unknown>>();
    const handler: LambdaHandler = createLambdaHandler({ handleFetch: async () => new Response(null, { status: 202 }) } as never);
    const v2: APIGatewayProxyHandlerV2 = handler;
    const url: LambdaFunctionURLHandler = handler;
    expect([v2, url]).toHaveLength(2);
  });
});
