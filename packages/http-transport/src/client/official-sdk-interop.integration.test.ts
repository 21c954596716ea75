/**
 * Our HTTP client transports against servers no one here wrote: the official TypeScript
 * SDK's Streamable HTTP server (with its event store and SEP-1699 stream closing) and its
 * legacy HTTP+SSE server.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { Server as OfficialServer } from '@modelcontextprotocol/sdk/server/index.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client } from '@statemcp/client';
import { afterEach, describe, expect, it } from 'vitest';

import { StreamableHttpClientTransport } from './streamable-http.js';

function officialServer(): OfficialServer {
  const server = new OfficialServer({ name: 'official', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      { name: 'add', description: 'a + b', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
      { name: 'test_reconnection', description: 'closes its SSE stream before answering', inputSchema: { type: 'object' } },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    if (request.params.name === 'test_reconnection') {
      extra.closeSSEStream?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
      return { content: [{ type: 'text', text: 'reconnected' }] };
    }
    const args = request.params.arguments as { a: number; b: number };
    return { content: [{ type: 'text', text: String(args.a + args.b) }] };
  });
  return server;
}

interface Running {
  url: string;
  http: Server;
  transports: Map<string, StreamableHTTPServerTransport>;
  servers: OfficialServer[];
  requests: { method: string; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

async function listen(http: Server): Promise<string> {
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}

async function startOfficialStreamable(): Promise<Running> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const servers: OfficialServer[] = [];
  const requests: Running['requests'] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    requests.push({ method: req.method ?? '', headers: req.headers });
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (transport === undefined) {
        res.writeHead(404).end();
        return;
      }
      await transport.handleRequest(req, res);
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(400).end();
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: new InMemoryEventStore(),
      retryInterval: 500,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        // Only a server whose session was initialized is kept: a modern client's `server/discover` probe meets a fresh one too.
        servers.push(server);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) transports.delete(transport.sessionId);
    };
    const server = officialServer();
    await server.connect(transport);
    await transport.handleRequest(req, res);
  };
  const http = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  const url = await listen(http);
  return {
    url,
    http,
    transports,
    servers,
    requests,
    close: async () => {
      for (const transport of transports.values()) await transport.close();
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    },
  };
}

let running: Running | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('interop with the official TypeScript SDK server', () => {
  it('connects, lists and calls tools, receives list_changed on the GET stream, and DELETEs on close', async () => {
    running = await startOfficialStreamable();
    const transport = new StreamableHttpClientTransport(running.url);
    const client = new Client({ name: 'statemcp-client', version: '0.1.0' });
    await client.connect(transport);
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(transport.sessionId).toBeDefined();
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toEqual(['add', 'test_reconnection']);
    const sum = await client.callTool({ name: 'add', arguments: { a: 5, b: 3 } });
    expect(sum.content).toEqual([{ type: 'text', text: '8' }]);
    await expect.poll(() => transport.standaloneStreamState?.kind).toBe('open');
    const changed = new Promise<void>((resolve) => client.session.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    await running.servers[0]?.sendToolListChanged();
    await changed;
    const sessionId = transport.sessionId;
    await client.close();
    const deleted = running.requests.find((r) => r.method === 'DELETE');
    expect(deleted?.headers['mcp-session-id']).toBe(sessionId);
    expect(running.transports.size).toBe(0);
    // The client's default era probed with `server/discover` first (refused with 400 / -32000 "Server not initialized"), then initialized.
    const [probe, initialize, ...posts] = running.requests.filter((r) => r.method === 'POST');
    expect(probe?.headers['mcp-method']).toBe('server/discover');
    expect(initialize?.headers['mcp-session-id']).toBeUndefined();
    for (const post of posts) {
      expect(post.headers['mcp-session-id']).toBe(sessionId);
      expect(post.headers['mcp-protocol-version']).toBe('2025-11-25');
      expect(post.headers.accept).toBe('application/json, text/event-stream');
    }
  });

  it('resumes after the server closes the POST stream (SEP-1699) and waits its retry interval', async () => {
    running = await startOfficialStreamable();
    const transport = new StreamableHttpClientTransport(running.url);
    const client = new Client({ name: 'statemcp-client', version: '0.1.0' });
    await client.connect(transport);
    const started = Date.now();
    const result = await client.callTool({ name: 'test_reconnection', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'reconnected' }]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    const resume = running.requests.find((r) => r.method === 'GET' && r.headers['last-event-id'] !== undefined);
    expect(resume).toBeDefined();
    await client.close();
  });

  it('re-initializes when the official server no longer knows the session (404), with the same client', async () => {
    running = await startOfficialStreamable();
    const recovered: unknown[] = [];
    const transport = new StreamableHttpClientTransport(running.url, { onSessionRecovered: (info) => recovered.push(info) });
    const client = new Client({ name: 'statemcp-client', version: '0.1.0' });
    await client.connect(transport);
    const first = transport.sessionId;
    for (const server of running.transports.values()) await server.close();
    running.transports.clear();
    const sum = await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(sum.content).toEqual([{ type: 'text', text: '3' }]);
    expect(transport.sessionId).not.toBe(first);
    expect(recovered).toHaveLength(1);
    await client.close();
  });

  it('falls back to the official legacy HTTP+SSE server', async () => {
    const legacyTransports = new Map<string, SSEServerTransport>();
    const http = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/mcp' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        legacyTransports.set(transport.sessionId, transport);
        res.on('close', () => legacyTransports.delete(transport.sessionId));
        void officialServer().connect(transport);
        return;
      }
      if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = legacyTransports.get(url.searchParams.get('sessionId') ?? '');
        if (transport === undefined) {
          res.writeHead(404).end();
          return;
        }
        void transport.handlePostMessage(req, res);
        return;
      }
      res.writeHead(405).end();
    });
    const url = await listen(http);
    try {
      const transport = new StreamableHttpClientTransport(url);
      const client = new Client({ name: 'statemcp-client', version: '0.1.0' });
      await client.connect(transport);
      expect(transport.wire).toBe('legacy');
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
      expect(sum.content).toEqual([{ type: 'text', text: '4' }]);
      await client.close();
    } finally {
      await new Promise<void>((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      });
    }
  });
});
