/**
 * One rule for the version of a stateless-era request (`resolveRequestVersion`), proven with a
 * second stateless revision registered for the test (`2099-01-01`, the 2026-07-28 revision's
 * data under another version): each request is served at the version it names, over HTTP and
 * on one in-memory connection alike; `server/discover` lists both; and a version no revision
 * describes is refused with the same -32022 by the HTTP server, the session and discovery.
 */
import { InMemoryTransport, getRevision, registerRevision, type JsonObject, type JsonRpcMessage, type Revision } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createStreamableHttpServer, type ListeningServer, type StreamableHttpServerOptions } from './index.js';

const MODERN = '2026-07-28';
const NEXT = '2099-01-01';
const UNKNOWN = '2100-01-01';
const SUPPORTED = ['2025-11-25', MODERN, NEXT];

let unregister: () => void = () => undefined;
beforeAll(() => {
  const modern = getRevision(MODERN) as Revision;
  unregister = registerRevision({ ...modern, version: NEXT });
});
afterAll(() => unregister());

const running: ListeningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((listening) => listening.close()));
});

/** An `McpServer` serving {@link SUPPORTED}, with a tool that reports the version its request was served at. */
function versionServer(): McpServer {
  const server = new McpServer({ name: 'versions', version: '1.0.0' }, { supportedVersions: SUPPORTED });
  server.registerTool('served_at', { description: 'Reports the protocol version of its request' }, (_args, extra) => ({
    content: [{ type: 'text', text: extra.protocolVersion }],
  }));
  return server;
}

function metaAt(version: string): JsonObject {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
}

function callAt(id: number, version: string): JsonObject {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'served_at', arguments: {}, _meta: metaAt(version) } };
}

function discoverAt(id: number, version: string): JsonObject {
  return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta: metaAt(version) } };
}

async function httpServer(versions: Partial<Pick<StreamableHttpServerOptions, 'supportedVersions' | 'supportedProtocolVersions'>> = { supportedVersions: SUPPORTED }): Promise<string> {
  const mcp = versionServer();
  const listening = await createStreamableHttpServer({ connect: (transport) => mcp.connect(transport), ...versions }).listen({ host: '127.0.0.1' });
  running.push(listening);
  return listening.url.href;
}

async function post(url: string, body: JsonObject, version: string): Promise<{ status: number; body: JsonObject }> {
  const params = body.params as JsonObject;
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': version,
    'mcp-method': String(body.method),
  };
  if (typeof params.name === 'string') headers['mcp-name'] = params.name;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as JsonObject };
}

/** One in-memory connection to the server, driven with raw messages; answers collected by id. */
async function rawConnection(): Promise<{ send: (message: JsonObject) => Promise<JsonObject> }> {
  const [client, server] = InMemoryTransport.createPair();
  await versionServer().connect(server);
  const waiting = new Map<unknown, (message: JsonObject) => void>();
  await client.start({
    onMessage: (value) => {
      const message = value as JsonObject;
      waiting.get(message.id)?.(message);
    },
    onClose: () => undefined,
  });
  return {
    send: (message) =>
      new Promise<JsonObject>((resolve) => {
        waiting.set(message.id, resolve);
        void client.send(message as unknown as JsonRpcMessage);
      }),
  };
}

const servedAt = (answer: JsonObject): unknown => ((answer.result as JsonObject).content as JsonObject[])[0]?.text;
const refusal = { code: -32022, message: `Unsupported protocol version: ${UNKNOWN}`, data: { supported: [NEXT, MODERN], requested: UNKNOWN } };

describe('the version of a stateless request, with a second stateless revision registered', () => {
  it('serves each HTTP request at the version it names', async () => {
    const url = await httpServer();
    const next = await post(url, callAt(1, NEXT), NEXT);
    const modern = await post(url, callAt(2, MODERN), MODERN);
    expect([next.status, servedAt(next.body)]).toEqual([200, NEXT]);
    expect([modern.status, servedAt(modern.body)]).toEqual([200, MODERN]);
  });

  it('serves each request of one connection at the version it names', async () => {
    const connection = await rawConnection();
    expect(servedAt(await connection.send(callAt(1, NEXT)))).toBe(NEXT);
    expect(servedAt(await connection.send(callAt(2, MODERN)))).toBe(MODERN);
    expect(servedAt(await connection.send(callAt(3, NEXT)))).toBe(NEXT);
  });

  it('lists both stateless versions in server/discover, newest first, over HTTP and in memory', async () => {
    const url = await httpServer();
    const overHttp = await post(url, discoverAt(1, NEXT), NEXT);
    expect(overHttp.body.result).toMatchObject({ supportedVersions: [NEXT, MODERN] });
    const connection = await rawConnection();
    expect((await connection.send(discoverAt(2, MODERN))).result).toMatchObject({ supportedVersions: [NEXT, MODERN] });
  });

  it('refuses a version no revision describes with the same -32022 over HTTP, in a session and in discovery', async () => {
    const url = await httpServer();
    const overHttp = await post(url, callAt(1, UNKNOWN), UNKNOWN);
    expect(overHttp.status).toBe(400);
    expect(overHttp.body.error).toEqual(refusal);
    const discoverOverHttp = await post(url, discoverAt(2, UNKNOWN), UNKNOWN);
    expect([discoverOverHttp.status, discoverOverHttp.body.error]).toEqual([400, refusal]);
    const connection = await rawConnection();
    expect((await connection.send(callAt(3, UNKNOWN))).error).toEqual(refusal);
    expect((await connection.send(discoverAt(4, UNKNOWN))).error).toEqual(refusal);
    // Once the connection serves a version, an unknown one is still refused alike.
    expect(servedAt(await connection.send(callAt(5, MODERN)))).toBe(MODERN);
    expect((await connection.send(callAt(6, UNKNOWN))).error).toEqual(refusal);
  });

  it('reads the deprecated supportedProtocolVersions when supportedVersions is unset, and supportedVersions first', async () => {
    const onlyModern = { code: -32022, message: `Unsupported protocol version: ${NEXT}`, data: { supported: [MODERN], requested: NEXT } };
    const deprecated = await httpServer({ supportedProtocolVersions: ['2025-11-25', MODERN] });
    expect((await post(deprecated, callAt(1, NEXT), NEXT)).body.error).toEqual(onlyModern);
    expect(servedAt((await post(deprecated, callAt(2, MODERN), MODERN)).body)).toBe(MODERN);
    const both = await httpServer({ supportedVersions: SUPPORTED, supportedProtocolVersions: ['2025-11-25', MODERN] });
    expect(servedAt((await post(both, callAt(3, NEXT), NEXT)).body)).toBe(NEXT);
  });
});
