/** A server and a client over WebSocket (`@statemcp/http-transport/ws`, Node only; needs `ws`). */
import { Client } from '@statemcp/client';
import { createWebSocketServer, WebSocketClientTransport } from '@statemcp/http-transport/ws';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

/** Starts a WebSocket MCP server on a free loopback port, calls it and stops it. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const server = new McpServer({ name: 'ws-server', version: '1.0.0' });
  server.registerTool('shout', { inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));

  const wss = await createWebSocketServer({ port: 0, connect: (transport) => server.connect(transport).then(() => undefined) });
  log(`listening on ${wss.url}`);

  const client = new Client({ name: 'ws-client', version: '1.0.0' });
  await client.connect(new WebSocketClientTransport(wss.url));
  const result = await client.callTool({ name: 'shout', arguments: { text: 'hello' } });
  log(`shout: ${JSON.stringify(result.content[0])}`);

  await client.close();
  await wss.close();
  await server.close();
}
