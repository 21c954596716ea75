// Copied into a project `npm create statemcp` wrote, after its build: starts the built server the way
// its README says (`node dist/main.js`, with `--http` for transport both) and calls its tool over each
// transport it serves, with the project's own @statemcp/client and transport packages. Exits 1 on a
// wrong answer.
//   node created-project-smoke.mjs stdio|http|both
import { spawn } from 'node:child_process';
import { Client } from '@statemcp/client';

const transport = process.argv[2];
const EXPECTED = '2026-01-15 21:00 in Asia/Tokyo (UTC+09:00)';

async function callTool(clientTransport, label) {
  const client = new Client({ name: 'pack-check', version: '1.0.0' });
  await client.connect(clientTransport);
  const result = await client.callTool({ name: 'time_in_zone', arguments: { timeZone: 'Asia/Tokyo', at: '2026-01-15T12:00:00Z' } });
  await client.close();
  const text = result.content[0]?.type === 'text' ? result.content[0].text : JSON.stringify(result);
  if (text !== EXPECTED) throw new Error(`${label}: expected "${EXPECTED}", got "${text}"`);
  console.log(`  ${label}: ${text}`);
}

/** `node dist/main.js [--http]` on a free port; resolves with the URL it prints and the child. */
function startHttp(args) {
  const child = spawn(process.execPath, ['dist/main.js', ...args], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`dist/main.js exited with ${code}`)));
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const url = /https?:\/\/\S+/.exec(output)?.[0];
      if (url === undefined) return;
      clearTimeout(timer);
      resolve({ url, child });
    });
  });
}

if (transport === 'stdio' || transport === 'both') {
  const { StdioClientTransport } = await import('@statemcp/stdio-transport');
  await callTool(new StdioClientTransport({ command: process.execPath, args: ['dist/main.js'] }), 'stdio');
}
if (transport === 'http' || transport === 'both') {
  const { StreamableHttpClientTransport } = await import('@statemcp/http-transport/client');
  const { url, child } = await startHttp(transport === 'both' ? ['--http'] : []);
  try {
    await callTool(new StreamableHttpClientTransport(new URL(url)), `Streamable HTTP (${url})`);
  } finally {
    child.removeAllListeners('exit');
    child.kill('SIGTERM');
  }
}
