// What the Streamable HTTP server allocates per `tools/call echo` (issue 39 items 1, 2): statemcp's
// `McpServer` behind `createStreamableHttpServer().listen()` and a raw node:http keep-alive client in
// ONE process, under V8's sampling heap profiler (objects collected by GCs kept). Prints the top
// allocating functions (30, or `TOP=n`) in bytes per call; the client's own frames
// (`node:_http_client`, this file) are listed too, so read the server's. Build the packages first.
//   node http-alloc-sites.mjs modern|legacy [CALLS] [IN_FLIGHT]
import { Session } from 'node:inspector/promises';
import { Agent, request } from 'node:http';
import { createStreamableHttpServer } from '@statemcp/http-transport/server';
import { McpServer } from '@statemcp/server';
import { z } from 'zod';

const [era = 'modern', callsArg, inFlightArg] = process.argv.slice(2);
const calls = Number(callsArg ?? 5000);
const inFlight = Number(inFlightArg ?? 1);
const server = new McpServer({ name: 'alloc', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));
const http = createStreamableHttpServer({ connect: (transport) => server.connect(transport) });
const { port } = await http.listen({ port: 0 });
const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const post = (message, headers) =>
  new Promise((resolve, reject) => {
    const body = JSON.stringify(message);
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      const parts = [];
      res.on('data', (chunk) => parts.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode, sessionId: res.headers['mcp-session-id'], text: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
let headers = { ...base, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'echo' };
let params = { name: 'echo', arguments: { text: 'hello' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } } };
if (era === 'legacy') {
  const opened = await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }, base);
  headers = { ...base, 'mcp-session-id': opened.sessionId, 'mcp-protocol-version': '2025-11-25' };
  await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  params = { name: 'echo', arguments: { text: 'hello' } };
}
let id = 0;
const run = async (count) => {
  let left = count;
  await Promise.all(Array.from({ length: inFlight }, async () => {
    while (left-- > 0) {
      const answer = await post({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params }, headers);
      if (answer.status !== 200 || !answer.text.includes('hello')) throw new Error(`${answer.status} ${answer.text}`);
    }
  }));
};
await run(1000);
const session = new Session();
session.connect();
await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMinorGC: true, includeObjectsCollectedByMajorGC: true });
await run(calls);
const { profile } = await session.post('HeapProfiler.stopSampling');
agent.destroy();
await http.close();
const self = new Map();
const nameOf = (f) => `${f.functionName || '(anonymous)'}  ${f.url.replace(/^.*\/(packages|node_modules)\//, '').replace(/^file:.*\/profiling\//, '')}:${f.lineNumber + 1}`;
// A built-in's allocations (`Map`, `push`, `(V8 API)`…) are charged to the function that called it, named after it.
const walk = (node, caller) => {
  const f = node.callFrame;
  const own = nameOf(f);
  const key = f.url === '' && caller !== undefined ? `${own.trim()} in ${caller}` : own;
  self.set(key, (self.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child, f.url === '' ? caller : own);
};
walk(profile.head, undefined);
const total = [...self.values()].reduce((a, b) => a + b, 0);
console.log(`${era}, ${inFlight} in flight: ${(total / calls).toFixed(0)} B sampled per call (server and client)`);
for (const [key, bytes] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30))) console.log(`${(bytes / calls).toFixed(0).padStart(7)} B  ${key}`);
// By package: statemcp's packages by name, node's own modules, the rest (natives, this file).
const byPackage = new Map();
for (const [key, bytes] of self) {
  const where = /(http-transport|protocol|server|zod)\/dist/.exec(key)?.[1] ?? (key.includes('node:') ? 'node' : 'other');
  byPackage.set(where, (byPackage.get(where) ?? 0) + bytes);
}
console.log([...byPackage].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => `${name} ${(bytes / calls).toFixed(0)} B`).join(', '));
process.exit(0);
