/**
 * A scripted Streamable HTTP server for the client transport's unit tests: one `session-<n>`
 * per initialize, JSON answers to calls, 405 for the GET stream unless a test overrides it.
 */
import { StreamableHttpClientTransport, type StreamableHttpClientTransportOptions } from '../src/client/streamable-http.js';
import {
  ManualClock,
  RecordingSink,
  accepted,
  fakeFetch,
  initializeRequest,
  initializeResult,
  initializedNotification,
  jsonResponse,
  settle,
  status,
  type FakeHandler,
  type RecordedRequest,
} from './fake-http.js';

export const URL_ = 'http://127.0.0.1:9/mcp';

export function isMethod(request: RecordedRequest, method: string): boolean {
  return (request.body as { method?: string } | undefined)?.method === method;
}

export function bodyId(request: RecordedRequest): unknown {
  return (request.body as { id?: unknown }).id;
}

/** A server that issues `session-<n>` per initialize, answers tools/call with JSON and 405s the GET. */
export function simpleServer(overrides: (request: RecordedRequest) => Response | undefined = () => undefined): FakeHandler {
  let sessions = 0;
  return (request) => {
    const custom = overrides(request);
    if (custom !== undefined) return custom;
    if (request.method === 'GET') return status(405);
    if (request.method === 'DELETE') return status(200);
    if (isMethod(request, 'initialize')) {
      sessions++;
      return jsonResponse(initializeResult(bodyId(request)), { 'mcp-session-id': `session-${sessions}` });
    }
    if (request.body !== undefined && bodyId(request) === undefined) return accepted();
    return jsonResponse({ jsonrpc: '2.0', id: bodyId(request), result: { ok: true } }, { 'mcp-session-id': 'not-from-initialize' });
  };
}

export async function connected(handler: FakeHandler, options: StreamableHttpClientTransportOptions = {}) {
  const fake = fakeFetch(handler);
  const clock = new ManualClock();
  const sink = new RecordingSink();
  const transport = new StreamableHttpClientTransport(URL_, { fetch: fake.fetch, clock, random: () => 0, ...options });
  await transport.start(sink);
  await transport.send(initializeRequest);
  transport.setProtocolVersion('2025-11-25');
  await transport.send(initializedNotification);
  await settle();
  return { transport, sink, clock, requests: fake.requests };
}

export const call = (id: number) => ({ jsonrpc: '2.0' as const, id, method: 'tools/call', params: { name: 'x' } });

