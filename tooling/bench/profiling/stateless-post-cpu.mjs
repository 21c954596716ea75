// CPU per 2026-07-28 POST of the HTTP server's stateless path, in one process and without
// sockets (issue 39 item 1): from `StatelessRequests.serve` (a transport per POST, `connect`,
// `Server.connect`'s exchange, the handler, the JSON answer, the transport's end) to the
// `HttpAnswer`, on the bench's `McpServer`; `--session` serves the same requests on one session
// transport assumed at 2026-07-28 (`acceptPost` per POST), the cost without the per-POST
// construction. node:http and the body's parse are not in it.
//   node stateless-post-cpu.mjs [ROOT] [CALLS] [--session] [--against=OTHER_ROOT]
// ROOT is a worktree whose packages are built (default: this one); ROUNDS rounds of CALLS after WARMUP.
// `--against=OTHER_ROOT` loads a second worktree's packages into the same process and alternates
// rounds between the two (A B B A …), printing each one's µs per POST and the ratio ROOT ÷ OTHER.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const session = process.argv.includes('--session');
const root = resolve(args[0] ?? new URL('../../..', import.meta.url).pathname);
const calls = Number(args[1] ?? 20_000);
const warmup = Number(process.env.WARMUP ?? 20_000);
const rounds = Number(process.env.ROUNDS ?? 5);
const against = process.argv.find((arg) => arg.startsWith('--against='))?.slice('--against='.length);

/** The server, `StatelessRequests` and one POST's call, on the packages of `root`. */
async function setUp(root) {
  const load = (path) => import(pathToFileURL(`${root}/packages/${path}`).href);
  const { McpServer } = await load('server/dist/index.js');
  const { z } = await load('server/node_modules/zod/index.js');
  const { StatelessRequests } = await load('http-transport/dist/server/stateless-requests.js');
  const { HttpServerSessionTransport } = await load('http-transport/dist/server/session-transport.js');

  const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));

  const VERSION = '2026-07-28';
  const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
  const context = { authInfo: undefined, requestInfo: undefined };
  const requests = new StatelessRequests(
    { retryIntervalMs: 1000, keepAliveIntervalMs: 15_000, maxQueuedMessages: 1000, maxStreamBufferBytes: 1 << 20, stalledStreamTimeoutMs: 30_000, clock: { now: () => performance.now() }, onClosed: (transport) => requests.ended(transport) },
    async (transport) => {
      await server.connect(transport);
      return true;
    },
  );
  /** What the HTTP server hands the user's `connect` (read by nothing here). */
  const opening = { authInfo: undefined, principal: undefined, http: undefined };
  /** A client that never goes away (the server's `onClientGone` listener is registered and dropped). */
  const client = { onClientGone() {} };

  let shared;
  if (session) {
    shared = new HttpServerSessionTransport({ sessionId: 'session-1', settings: { retryIntervalMs: 1000, keepAliveIntervalMs: 15_000, maxQueuedMessages: 1000, maxStreamBufferBytes: 1 << 20, stalledStreamTimeoutMs: 30_000, clock: { now: () => performance.now() } } });
    Object.defineProperty(shared, 'assumedProtocolVersion', { value: VERSION });
    await server.connect(shared);
  }
  let id = 0;
  async function call() {
    const message = { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta } };
    const post = { messages: [message], requestIds: [message.id], batch: false, mode: 'auto', version: VERSION, context, headers: {}, client };
    const answer = shared === undefined ? await requests.serve(post, false, opening) : await shared.acceptPost(post);
    if (answer.status !== 200) throw new Error(`call failed: ${answer.status}`);
  }
  return call;
}

const calls0 = await setUp(root);
const calls1 = against === undefined ? undefined : await setUp(resolve(against));
const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
async function round(call, count) {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await call();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
}
for (const call of [calls0, calls1]) if (call !== undefined) await round(call, warmup);
const figures = [[], []];
for (let r = 0; r < rounds; r++) {
  const order = calls1 === undefined ? [0] : r % 2 === 0 ? [0, 1] : [1, 0];
  for (const which of order) figures[which].push(await round(which === 0 ? calls0 : calls1, calls));
}
const label = session ? 'session' : 'stateless';
const line = (list) => `${list.map((f) => f.toFixed(2)).join(' ')} (median ${median(list).toFixed(2)})`;
console.log(`${label} µs/POST: ${line(figures[0])}`);
if (calls1 !== undefined) {
  console.log(`against  µs/POST: ${line(figures[1])}`);
  console.log(`ratio ${(median(figures[0].map((f, i) => f / figures[1][i]))).toFixed(3)} (per round: ${figures[0].map((f, i) => (f / figures[1][i]).toFixed(2)).join(' ')})`);
}
