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
import { Agent, request } from 'node:http';
import { Client } from '@statemcp/client';
import { StreamableHttpClientTransport } from '@statemcp/http-transport/client';

const [era = 'modern', callsArg, inFlightArg] = process.argv.slice(2);
if (era !== 'modern' && era !== 'legacy' && era !== 'raw') throw new Error('usage: node http-client-cpu.mjs modern|legacy|raw [CALLS] [IN_FLIGHT]');
const calls = Number(callsArg ?? 4000);
const inFlight = Number(inFlightArg ?? 1);
const fixture = process.env.FIXTURE ?? new URL('../dist/fixtures/http-statemcp.mjs', import.meta.url).pathname;
const child = spawn(process.execPath, [fixture], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await new Promise((resolve) => {
  let seen = '';
  child.stdout.on('data', (chunk) => {
    seen += chunk;
    const match = /LISTENING (\d+)/.exec(seen);
    if (match) resolve(Number(match[1]));
  });
});
const { call, close } = era === 'raw' ? rawClient(port) : await sdkClient(port);
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

async function sdkClient(port) {
  const client = new Client({ name: 'bench-client', version: '1.0.0' }, { era });
  await client.connect(new StreamableHttpClientTransport(`http://127.0.0.1:${port}/`));
  const call = async () => {
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello' } });
    if (result.content[0]?.text !== 'hello') throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };
  return { call, close: () => client.close() };
}

/** The raw floor: 2026-07-28 POSTs with `_meta` and routing headers, the answer parsed, nothing validated. */
function rawClient(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
  let id = 0;
  const call = () =>
    new Promise((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello' }, _meta: meta } });
      const req = request({ host: '127.0.0.1', port, path: '/', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
        const parts = [];
        res.on('data', (chunk) => parts.push(chunk));
        res.on('end', () => {
          const answer = JSON.parse(Buffer.concat(parts).toString());
          if (res.statusCode === 200 && answer.result?.content[0]?.text === 'hello') resolve();
          else reject(new Error(`${res.statusCode} ${JSON.stringify(answer)}`));
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  return { call, close: async () => agent.destroy() };
}
