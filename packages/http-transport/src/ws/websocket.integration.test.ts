import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

import { Session, type TransportCloseInfo, type TransportSink } from '@statemcp/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';

import {
  WebSocketClientTransport,
  WebSocketServerTransport,
  createWebSocketServer,
  type WebSocketMcpServer,
} from './index.js';

interface Recorder extends TransportSink {
  messages: unknown[];
  closes: TransportCloseInfo[];
  malformed: string[];
  closed: Promise<TransportCloseInfo>;
}

function recorder(onMessage?: (value: unknown) => void): Recorder {
  let resolveClosed!: (info: TransportCloseInfo) => void;
  const rec: Recorder = {
    messages: [],
    closes: [],
    malformed: [],
    closed: new Promise((resolve) => (resolveClosed = resolve)),
    onMessage(value) {
      rec.messages.push(value);
      onMessage?.(value);
    },
    onMalformed(text) {
      rec.malformed.push(text);
    },
    onClose(info) {
      rec.closes.push(info);
      resolveClosed(info);
    },
  };
  return rec;
}

/** A server whose sessions answer every request with `{ echo: params }`. */
async function echoServer(): Promise<{ server: WebSocketMcpServer; sinks: Recorder[] }> {
  const sinks: Recorder[] = [];
  const server = await createWebSocketServer({
    port: 0,
    path: '/mcp',
    connect: async (transport) => {
      const sink = recorder((value) => {
        const message = value as { id?: number; method?: string; params?: unknown };
        if (message.id !== undefined && message.method !== undefined) {
          void transport.send({ jsonrpc: '2.0', id: message.id, result: { echo: message.params ?? null } });
        }
      });
      sinks.push(sink);
      await transport.start(sink);
    },
  });
  return { server, sinks };
}

function upgradeStatus(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url.replace('ws:', 'http:'), {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    req.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

let running: WebSocketMcpServer | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('WebSocket transports', () => {
  it('runs a full session lifecycle and 1000 tool calls between two Session runners', async () => {
    const serverSessions: Session[] = [];
    const server = await createWebSocketServer({
      port: 0,
      connect: async (transport) => {
        const session = new Session({
          role: 'server',
          capabilities: () => ({ tools: {} }),
          onInitialize: (_params, version) => ({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'ws-server', version: '1' } }),
        });
        session.setRequestHandler('tools/call', (params) => ({
          content: [{ type: 'text', text: `echo ${JSON.stringify((params as { arguments?: unknown }).arguments)}` }],
        }));
        serverSessions.push(session);
        await session.connect(transport);
      },
    });
    running = server;
    const client = new Session({ role: 'client', capabilities: () => ({}) });
    await client.connect(new WebSocketClientTransport(server.url));
    const init = await client.initialize({ capabilities: {}, clientInfo: { name: 'ws-client', version: '1' } });
    expect(init.serverInfo.name).toBe('ws-server');
    expect(client.state.kind).toBe('operating');
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, n) => client.request('tools/call', { name: 'echo', arguments: { n } })),
    );
    expect(results[999]).toEqual({ content: [{ type: 'text', text: 'echo {"n":999}' }] });
    expect(results.every((r, n) => JSON.stringify(r).includes(`{\\"n\\":${n}}`))).toBe(true);
    await client.close();
    expect(client.state.kind).toBe('terminated');
    const serverClose = await serverSessions[0]?.closed;
    expect(serverClose?.reason).toBe('peerClosed');
  });

  it('carries 1000 concurrent requests and closes with one onClose on each side', async () => {
    const { server, sinks } = await echoServer();
    running = server;
    const pending = new Map<number, (value: unknown) => void>();
    const clientSink = recorder((value) => {
      const message = value as { id: number };
      pending.get(message.id)?.(value);
    });
    const client = new WebSocketClientTransport(server.url);
    await client.start(clientSink);
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, id) => {
        const answered = new Promise<unknown>((resolve) => pending.set(id, resolve));
        void client.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { n: id } });
        return answered;
      }),
    );
    expect(answers[999]).toEqual({ jsonrpc: '2.0', id: 999, result: { echo: { n: 999 } } });
    expect(new Set(answers.map((a) => (a as { id: number }).id)).size).toBe(1000);
    await client.close();
    await client.close();
    expect(clientSink.closes).toEqual([{ initiator: 'local', details: { code: 1000, reason: 'client closing' } }]);
    const serverSide = await sinks[0]?.closed;
    expect(serverSide?.initiator).toBe('remote');
    expect(sinks[0]?.closes).toHaveLength(1);
    await expect(client.send({ jsonrpc: '2.0', method: 'x' })).rejects.toMatchObject({ code: 'CONNECTION_CLOSED' });
  });

  it('negotiates the mcp subprotocol and reports malformed frames', async () => {
    const { server, sinks } = await echoServer();
    running = server;
    const raw = new WebSocket(server.url, ['mcp']);
    await new Promise((resolve) => raw.once('open', resolve));
    expect(raw.protocol).toBe('mcp');
    raw.send('{not json');
    raw.send(JSON.stringify({ jsonrpc: '2.0', method: 'ping-note' }));
    await expect.poll(() => sinks[0]?.messages.length).toBe(1);
    expect(sinks[0]?.malformed).toEqual(['{not json']);
    expect(sinks[0]?.messages).toEqual([{ jsonrpc: '2.0', method: 'ping-note' }]);
    raw.close();
  });

  it('lets the server close the connection and the client see a remote close', async () => {
    const { server } = await echoServer();
    running = server;
    const clientSink = recorder();
    const client = new WebSocketClientTransport(server.url);
    await client.start(clientSink);
    await expect.poll(() => server.connections.size).toBe(1);
    const [serverTransport] = [...server.connections];
    await serverTransport?.close();
    const info = await clientSink.closed;
    expect(info.initiator).toBe('remote');
  });

  it('terminates when the peer never answers the close handshake', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'mcp' });
    await new Promise((resolve) => wss.once('listening', resolve));
    wss.on('connection', (socket) => {
      // Stop reading: the client's Close frame is never seen, so no Close comes back.
      (socket as unknown as { _socket: { pause(): void } })._socket.pause();
    });
    const { port } = wss.address() as AddressInfo;
    const clientSink = recorder();
    const client = new WebSocketClientTransport(`ws://127.0.0.1:${port}/`, { closeTimeoutMs: 100 });
    await client.start(clientSink);
    const started = Date.now();
    await client.close();
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(90);
    expect(elapsed).toBeLessThan(2000);
    expect(clientSink.closes).toHaveLength(1);
    expect(clientSink.closes[0]?.initiator).toBe('local');
    for (const socket of wss.clients) socket.terminate();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('wraps sockets of a WebSocketServer the caller runs, queueing frames sent before start()', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', handleProtocols: () => 'mcp' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const serverSink = recorder();
    let arrived: Promise<unknown> = Promise.resolve();
    const accepted = new Promise<WebSocketServerTransport>((resolve) =>
      wss.on('connection', (socket) => {
        arrived = new Promise((frame) => socket.once('message', frame));
        resolve(new WebSocketServerTransport(socket));
      }),
    );
    const { port } = wss.address() as AddressInfo;
    const client = new WebSocketClientTransport(`ws://127.0.0.1:${port}/`);
    await client.start(recorder());
    const transport = await accepted;
    await client.send({ jsonrpc: '2.0', method: 'early' });
    await arrived; // the frame reached the socket before the transport started
    await transport.start(serverSink);
    expect(serverSink.messages).toEqual([{ jsonrpc: '2.0', method: 'early' }]);
    await transport.terminate();
    expect((await serverSink.closed).initiator).toBe('local');
    await client.close();
    await new Promise((resolve) => wss.close(resolve));
  });

  it('refuses a foreign Host or Origin and a missing mcp subprotocol', async () => {
    const { server } = await echoServer();
    running = server;
    expect(await upgradeStatus(server.url, { host: 'evil.example', 'sec-websocket-protocol': 'mcp' })).toBe(403);
    expect(await upgradeStatus(server.url, { origin: 'https://evil.example', 'sec-websocket-protocol': 'mcp' })).toBe(403);
    expect(await upgradeStatus(server.url, { 'sec-websocket-protocol': 'chat' })).toBe(400);
    expect(await upgradeStatus(server.url, { 'sec-websocket-protocol': 'mcp' })).toBe(101);
    expect(await upgradeStatus(server.url.replace('/mcp', '/other'), { 'sec-websocket-protocol': 'mcp' })).toBe(404);
  });

  it('rejects start() when the server is unreachable', async () => {
    const { server } = await echoServer();
    const url = server.url;
    await server.close();
    const client = new WebSocketClientTransport(url);
    await expect(client.start(recorder())).rejects.toMatchObject({ code: 'TRANSPORT_ERROR' });
  });
});
