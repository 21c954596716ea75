// @ts-check
// client.mjs — starts server.mjs over stdio, or connects to a URL over Streamable HTTP:
//   node client.mjs                          (stdio)
//   node client.mjs http://127.0.0.1:3000/mcp   (HTTP, with `node server.mjs --http` running)
import { fileURLToPath } from 'node:url';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';

const url = process.argv[2];
const transport =
  url === undefined
    ? new StdioClientTransport({ command: process.execPath, args: [fileURLToPath(new URL('./server.mjs', import.meta.url))] })
    : new StreamableHttpClientTransport(new URL(url));

const client = new Client({ name: 'hello-client', version: '1.0.0' });
await client.connect(transport);
console.log(`connected to ${client.serverInfo?.name} (protocol ${client.protocolVersion}, state ${client.state.kind})`);

const { tools } = await client.listTools();
console.log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);

const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
console.log(`add(2, 3) = ${result.content[0]?.type === 'text' ? result.content[0].text : '?'}`);

await client.close(); // stdio: the server process has exited when this resolves; HTTP: the session is deleted
console.log(`closed: ${client.state.kind}`);
