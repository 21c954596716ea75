// Client CPU per `tools/call echo` in the shape of the bench's `call.http.*` rows (issue 39 items 1,
// 2): CLIENTS statemcp `Client`s on the default transport (`nodeHttpFetch`), each with PER_CLIENT
// calls in flight, against an HTTP fixture already listening on `PORT` (start one of the bench's
// built fixtures and warm it once, so that an A/B of two worktrees' clients shares one warm server).
// Warms up with WARMUP calls, then prints this process's CPU µs per call (`process.cpuUsage`, user
// + system), its main thread's alone, and calls/s over CALLS calls. `raw` is the raw floor's node:http client (one keep-alive
// agent per client, as the bench's raw stack). Run it from two worktrees alternately (ABBA).
//   PORT=n node http-client-rows.mjs legacy|modern|raw CLIENTS PER_CLIENT [CALLS] [WARMUP]
import { readFileSync } from 'node:fs';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';
import { rawHttpClient } from './raw-client.mjs';

const [era = 'legacy', clientsArg = '1', perClientArg = '1', callsArg, warmupArg] = process.argv.slice(2);
if (era !== 'modern' && era !== 'legacy' && era !== 'raw') throw new Error('usage: PORT=n node http-client-rows.mjs legacy|modern|raw CLIENTS PER_CLIENT [CALLS] [WARMUP]');
const port = Number(process.env.PORT);
if (!Number.isInteger(port) || port <= 0) throw new Error('PORT must name the listening fixture');
const url = `http://127.0.0.1:${port}/`;
const clients = Number(clientsArg);
const perClient = Number(perClientArg);
const calls = Number(callsArg ?? 10_000);
const warmup = Number(warmupArg ?? 4000);
const list = [];
for (let i = 0; i < clients; i++) list.push(era === 'raw' ? rawHttpClient(port) : await sdkClient());
const run = async (count) => {
  let left = count;
  await Promise.all(Array.from({ length: clients * perClient }, async (_, worker) => {
    const { call } = list[worker % clients];
    while (left-- > 0) await call();
  }));
};
await run(warmup);
const [cpu0, main0, wall0] = [process.cpuUsage(), mainThreadUs(), performance.now()];
await run(calls);
const cpu = process.cpuUsage(cpu0);
const main = mainThreadUs() - main0;
const wall = performance.now() - wall0;
console.log(JSON.stringify({ era, clients, perClient, cpuUsPerCall: +((cpu.user + cpu.system) / calls).toFixed(1), userUs: +(cpu.user / calls).toFixed(1), mainThreadUs: +(main / calls).toFixed(1), callsPerSec: Math.round((calls / wall) * 1000) }));
await Promise.all(list.map(({ close }) => close()));

/** CPU time of the main thread alone (user + system, Linux; 10 ms ticks): helper threads (GC, compiler) left out. */
function mainThreadUs() {
  const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function sdkClient() {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era });
  await client.connect(new StreamableHttpClientTransport(url));
  const call = async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    if (result.content[0]?.text !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };
  return { call, close: () => client.close() };
}
