// Client CPU per `tools/call echo` over Streamable HTTP (issue 39 items 1, 2): spawns one of
// the bench's built HTTP fixtures (`node ../build.mjs` first; default the statemcp one, whose
// legacy answers are SSE streams and 2026-07-28 ones JSON), connects statemcp's `Client` with
// the default transport (`nodeHttpFetch`), warms up with 500 calls, then makes CALLS calls
// (IN_FLIGHT at once) and prints this process's CPU µs per call (`process.cpuUsage`, user +
// system) and calls/s. Run it from two worktrees alternately for an A/B of the client. `raw`
// is the floor: the raw client's 2026-07-28 POSTs on node:http keep-alive (no SDK).
//   node http-client-cpu.mjs modern|legacy|raw [CALLS] [IN_FLIGHT]
// `FIXTURE=../dist/fixtures/http-raw.mjs` swaps the server; `--cpu-prof` profiles this process.
import { spawn } from 'node:child_process';
import { rawHttpClient, listeningPort } from './raw-client.mjs';
import { statemcpHttpClient } from './statemcp-http-client.mjs';

const [era = 'modern', callsArg, inFlightArg] = process.argv.slice(2);
if (era !== 'modern' && era !== 'legacy' && era !== 'raw') throw new Error('usage: node http-client-cpu.mjs modern|legacy|raw [CALLS] [IN_FLIGHT]');
const calls = Number(callsArg ?? 4000);
const inFlight = Number(inFlightArg ?? 1);
const fixture = process.env.FIXTURE ?? new URL('../dist/fixtures/http-statemcp.mjs', import.meta.url).pathname;
const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await listeningPort(child);
const { call, close } = era === 'raw' ? rawHttpClient(port) : await statemcpHttpClient(port, era);
const run = async (count) => {
  let left = count;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (left-- > 0) await call();
  }));
};
await run(500);
const [cpu0, wall0] = [process.cpuUsage(), performance.now()];
await run(calls);
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
console.log(JSON.stringify({ era, inFlight, clientCpuUsPerCall: Math.round((cpu.user + cpu.system) / calls), userUs: Math.round(cpu.user / calls), systemUs: Math.round(cpu.system / calls), callsPerSec: Math.round((calls / wall) * 1000) }));
await close();
child.kill();
