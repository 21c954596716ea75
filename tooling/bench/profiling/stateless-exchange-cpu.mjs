// CPU per 2026-07-28 request served without a session, in one process and without HTTP (issue 39
// item 1): the part of a stateless POST between the transport's `connect` and the answer's `send`
// (`Server.connect` → the exchange → the tool's handler → the reply), on the bench's `McpServer`.
// Each exchange gets a fresh single-exchange transport (what `stateless-requests.ts` builds per
// POST, here a bare one), as a session gets one transport for all its calls; `--session` measures
// the same calls on one 2026-07-28 transport that is not single-exchange (a session assumed at that
// version), the cost without the per-request construction.
//   node stateless-exchange-cpu.mjs [ROOT] [CALLS] [--session]
// ROOT is a worktree whose packages are built (default: this one); prints µs per call for ROUNDS
// rounds of CALLS calls after WARMUP calls.
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const args = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const session = process.argv.includes('--session');
const root = resolve(args[0] ?? new URL('../../..', import.meta.url).pathname);
const calls = Number(args[1] ?? 20_000);
const warmup = Number(process.env.WARMUP ?? 20_000);
const rounds = Number(process.env.ROUNDS ?? 5);
const { McpServer } = await import(pathToFileURL(`${root}/packages/server/dist/index.js`).href);
const { z } = await import(pathToFileURL(`${root}/packages/server/node_modules/zod/index.js`).href);

const server = new McpServer({ name: 'bench-statemcp', version: '1.0.0' });
server.registerTool('echo', { description: 'Echoes its text', inputSchema: { text: z.string() } }, ({ text }) => ({ content: [{ type: 'text', text }] }));

const VERSION = '2026-07-28';
const meta = { 'io.modelcontextprotocol/protocolVersion': VERSION, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' } };
const context = { authInfo: undefined, requestInfo: undefined };
const SENT = Promise.resolve();

/** A transport that carries one exchange (or, with `single` false, any number) and hands each answer to `onAnswer`. */
class BareTransport {
  constructor(single) {
    this.singleExchange = single;
    this.assumedProtocolVersion = VERSION;
    this.sessionId = undefined;
    this.sink = undefined;
    this.onAnswer = undefined;
  }
  async start(sink) {
    this.sink = sink;
  }
  send(message) {
    if ('id' in message && message.method === undefined) {
      const done = this.onAnswer;
      this.onAnswer = undefined;
      done?.(message);
      if (this.singleExchange) this.sink.onClose({ initiator: 'local' });
    }
    return SENT;
  }
  async close() {
    this.sink?.onClose({ initiator: 'local' });
  }
}

let id = 0;
const shared = session ? new BareTransport(false) : undefined;
if (shared !== undefined) await server.connect(shared);

async function call() {
  const transport = shared ?? new BareTransport(true);
  if (shared === undefined) await server.connect(transport);
  const answered = new Promise((done) => (transport.onAnswer = done));
  transport.sink.onMessage({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' }, _meta: meta } }, context);
  const answer = await answered;
  if (answer.result === undefined) throw new Error(`call failed: ${JSON.stringify(answer)}`);
}

for (let i = 0; i < warmup; i++) await call();
const figures = [];
for (let r = 0; r < rounds; r++) {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call();
  const used = process.cpuUsage(start);
  figures.push((used.user + used.system) / calls);
}
console.log(`${session ? 'session' : 'stateless'} µs/call: ${figures.map((f) => f.toFixed(2)).join(' ')} (median ${[...figures].sort((a, b) => a - b)[Math.floor(rounds / 2)].toFixed(2)})`);
