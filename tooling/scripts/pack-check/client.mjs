// Round trips from the published entry points: spawns server.mjs over stdio, then as an HTTP
// server process, and calls its tool through each transport. Exits non-zero on any mismatch.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Client } from '@statemcp/client';
import { StdioClientTransport } from '@statemcp/stdio-transport';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

const serverPath = new URL('./server.mjs', import.meta.url).pathname;

async function roundTrip(label, transport) {
  const client = new Client({ name: 'pack-check-client', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const result = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  await client.close();
  const sum = result.structuredContent?.sum;
  if (tools[0]?.name !== 'add' || sum !== 5) {
    throw new Error(`${label}: unexpected tools ${JSON.stringify(tools)} or result ${JSON.stringify(result)}`);
  }
  console.log(`${label} round trip: tools/list → [add], tools/call add(2, 3) → ${sum}`);
}

await roundTrip('stdio', new StdioClientTransport({ command: process.execPath, args: [serverPath] }));

const child = spawn(process.execPath, [serverPath, 'http'], { stdio: ['ignore', 'pipe', 'inherit'] });
try {
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`HTTP server exited early with code ${String(code)}`);
  });
  const lines = createInterface({ input: child.stdout });
  const [url] = await Promise.race([once(lines, 'line'), exited]);
  await roundTrip('Streamable HTTP', new StreamableHttpClientTransport(new URL(url)));
} finally {
  child.kill('SIGTERM');
}
