// Server CPU per 2026-07-28 stateless `tools/call echo` over Streamable HTTP (issue 39 item 1):
// spawns one of the bench's built HTTP fixtures (`node ../build.mjs` first), warms it with 500
// calls, then POSTs CALLS requests (IN_FLIGHT at once) with a raw node:http keep-alive client
// and reads the child's user + system CPU from /proc (Linux). Prints server CPU µs per call and
// calls/s. The client is the raw floor's, so the figure is the server's alone.
//   node http-modern-server-cpu.mjs ../dist/fixtures/http-statemcp.mjs [CALLS] [IN_FLIGHT]
// `PROF=/tmp/dir` runs the child with --cpu-prof (read it with ../profile-summary.mjs), sampling every `PROF_INTERVAL` µs (default 1000).
// `WARMUP=n` sets the warm-up calls (default 500: far from steady state, see the journal's fifth HTTP
// server pass; 8000 reaches it); `WINDOWS=n` measures n windows of CALLS calls one after the other
// and prints each window's CPU per call too (the warm-up curve).
// `CHILD_FLAGS='--import /abs/hook.mjs …'` adds node flags to the child (space-separated), e.g. a hook that counts its GCs.
// `ERA=legacy` measures a 2025-11-25 session instead: one `initialize` + `notifications/initialized`,
// then every call carries `Mcp-Session-Id` (answered with SSE or JSON, whichever the server picks).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { listeningPort } from './raw-client.mjs';

const [fixture, callsArg, inFlightArg] = process.argv.slice(2);
if (fixture === undefined) throw new Error('usage: node http-modern-server-cpu.mjs FIXTURE [CALLS] [IN_FLIGHT]');
const calls = Number(callsArg ?? 4000);
const inFlight = Number(inFlightArg ?? 1);
const profile = process.env.PROF === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${process.env.PROF}`, `--cpu-prof-interval=${process.env.PROF_INTERVAL ?? 1000}`];
const childFlags = (process.env.CHILD_FLAGS ?? '').split(' ').filter((flag) => flag.length > 0);
const child = spawn(process.execPath, [...profile, ...childFlags, fixture], { stdio: ['pipe', 'pipe', 'inherit'] });
const port = await listeningPort(child);
/** [utime, stime] of the child, in clock ticks (10 ms). */
const ticks = () => {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return [Number(fields[11]), Number(fields[12])];
};
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const legacy = process.env.ERA === 'legacy';
const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
let id = 0;
/** One POST; resolves with the status, the session id header and the body text. */
const post = (message, extraHeaders) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(message);
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...extraHeaders, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts = [];
      res.on('data', (chunk) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, sessionId: res.headers['mcp-session-id'], text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
let callHeaders = headers;
if (legacy) {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const clientInfo = { name: 'raw', version: '1' };
  const opened = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } }, base);
  if (opened.sessionId === undefined) throw new Error(`initialize failed: ${opened.status} ${opened.text}`);
  callHeaders = { ...base, 'mcp-session-id': opened.sessionId, 'mcp-protocol-version': '2025-11-25' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, callHeaders);
}
const params = legacy ? { name: 'echo', arguments: { text: 'hello' } } : { name: 'echo', arguments: { text: 'hello' }, _meta: meta };
const call = async () => {
  const answer = await post({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params }, callHeaders);
  if (answer.status !== 200 || !answer.text.includes('hello')) throw new Error(`${answer.status} ${answer.text}`);
};
const run = async (count) => {
  let left = count;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (left-- > 0) await call();
  }));
};
await run(Number(process.env.WARMUP ?? 500));
const windows = [];
for (let w = Number(process.env.WINDOWS ?? 1); w > 1; w--) {
  const before = ticks();
  await run(calls);
  const after = ticks();
  windows.push(Math.round(((after[0] - before[0] + after[1] - before[1]) * 10_000) / calls));
}
const [ticks0, wall0] = [ticks(), performance.now()];
await run(calls);
const [ticks1, wall1] = [ticks(), performance.now()];
const perCall = (user, system) => Math.round(((user + system) * 10_000) / calls);
const [user, system] = [ticks1[0] - ticks0[0], ticks1[1] - ticks0[1]];
const last = { serverCpuUsPerCall: perCall(user, system), userUs: perCall(user, 0), systemUs: perCall(0, system), callsPerSec: Math.round((calls / (wall1 - wall0)) * 1000) };
console.log(JSON.stringify(windows.length === 0 ? last : { ...last, windowsUsPerCall: [...windows, last.serverCpuUsPerCall] }));
agent.destroy();
child.stdin.end();
await new Promise((resolve) => child.on('exit', resolve));
