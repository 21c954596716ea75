import { createStreamableHttpServer, StreamableHttpClientTransport } from '@statemcp/http-transport';
import { McpServer } from '@statemcp/server';
import { Client } from '@statemcp/client';
import { z } from 'zod/v4';
const server = new McpServer({ name: 'p', version: '1.0.0' });
server.registerTool('echo', { description: 'e', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
const http = createStreamableHttpServer({ connect: (t) => server.connect(t) });
const { url } = await http.listen({ port: 0, host: '127.0.0.1' });
const client = new Client({ name: 'c', version: '1' }, { era: process.argv[2] ?? 'modern' });
await client.connect(new StreamableHttpClientTransport(url));
for (let i = 0; i < 200; i++) await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
const times = [];
for (let i = 0; i < 500; i++) { const t0 = performance.now(); await client.callTool({ name: 'echo', arguments: { text: 'hi' } }); times.push(performance.now() - t0); }
times.sort((a, b) => a - b);
console.log('p50 ms', times[250].toFixed(3), 'p90', times[450].toFixed(3));
await client.close(); await http.close(); process.exit(0);
