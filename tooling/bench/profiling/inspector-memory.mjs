// The inspector's cost per event, by result size, without pipes: statemcp's Client and McpServer
// in memory in this process (both sessions' events inspected, 10 per call), batches of calls
// alternating without and with `@statemcp/inspector` and one viewer process reading every frame
// (../dist/fixtures/inspector-viewer.mjs; build the bench first). Run with --expose-gc.
//   node --expose-gc inspector-memory.mjs ROUNDS BATCH BYTES...
// Per size: median CPU µs/call without and with the page, the paired difference per event, and
// bytes allocated per call in each mode.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Client } from '@statemcp/client';
import { startInspector } from '@statemcp/inspector';
import { InMemoryTransport } from '@statemcp/protocol';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

const [rounds = 10, batch = 200, ...sizes] = process.argv.slice(2).map(Number);
if (sizes.length === 0) sizes.push(43, 160 * 1024);
if (typeof globalThis.gc !== 'function') throw new Error('run with --expose-gc');
const viewerPath = new URL('../dist/fixtures/inspector-viewer.mjs', import.meta.url).pathname;

const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
const texts = new Map();
server.registerTool('big', { description: 'Returns a text of N bytes', inputSchema: { bytes: z.number().int().nonnegative() } }, ({ bytes }) => {
  const unit = 'quote " backslash \\ tab \t newline \n plain text ';
  if (!texts.has(bytes)) texts.set(bytes, unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes));
  return { content: [{ type: 'text', text: texts.get(bytes) }] };
});
const [clientSide, serverSide] = InMemoryTransport.createPair();
const connection = await server.connect(serverSide);
const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era: 'legacy' });
await client.connect(clientSide);

async function viewed() {
  const inspector = await startInspector();
  const child = spawn(process.execPath, [viewerPath, `ws://127.0.0.1:${inspector.port}/events?token=${inspector.token}`, 'read'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  createInterface({ input: child.stdout }).on('line', (line) => waiting.shift()?.(line));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  if ((await next()) !== 'OPEN') throw new Error('viewer did not open');
  const events = async () => {
    const answer = next();
    child.stdin.write('count\n');
    return Number((await answer).replace('EVENTS ', ''));
  };
  return {
    events,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin.end();
      await inspector.close();
      await exited;
    },
  };
}

const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
for (const bytes of sizes) {
  const call = async () => {
    const result = await client.callTool({ name: 'big', arguments: { bytes } });
    if (result.content[0].text.length !== bytes) throw new Error('bad size');
  };
  for (let i = 0; i < batch; i++) await call();
  const out = { plain: [], inspected: [] };
  let perCall = 0;
  for (let r = 0; r < rounds; r++) {
    for (const mode of r % 2 ? ['inspected', 'plain'] : ['plain', 'inspected']) {
      const v = mode === 'inspected' ? await viewed() : undefined;
      for (let i = 0; i < 20; i++) await call();
      const e0 = (await v?.events()) ?? 0;
      globalThis.gc();
      const c0 = process.cpuUsage();
      for (let i = 0; i < batch; i++) await call();
      const c = process.cpuUsage(c0);
      // the last flush (50 ms) is part of the cost: wait for it before reading the CPU again
      await new Promise((resolve) => setTimeout(resolve, 80));
      const c2 = process.cpuUsage(c0);
      if (v !== undefined) perCall = ((await v.events()) - e0) / batch;
      out[mode].push({ cpu: (c2.user + c2.system) / batch, loopCpu: (c.user + c.system) / batch });
      await v?.close();
    }
  }
  const diff = med(out.plain.map((p, i) => out.inspected[i].cpu - p.cpu));
  console.log(`${bytes} B: CPU ${med(out.plain.map((x) => x.cpu)).toFixed(1)} → ${med(out.inspected.map((x) => x.cpu)).toFixed(1)} µs/call; paired +${diff.toFixed(1)} µs/call, ${perCall.toFixed(1)} events/call reached the viewer → ${(diff / perCall).toFixed(2)} µs/event`);
}
await client.close();
await connection.close();
