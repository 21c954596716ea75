// Shared by the profiling scripts: the CPU time of a live process, and the raw floor's clients (a
// hand-written JSON-RPC client over a child's stdio, newline-delimited, no validation; one over
// HTTP on node:http).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

/** CPU time (user + system) of a live process so far, in ms (Linux; 10 ms ticks). */
export const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

/** The port an HTTP fixture child prints as `LISTENING <port>` on its stdout once it listens. */
export const listeningPort = (child) =>
  new Promise((resolve) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /LISTENING (\d+)/.exec(seen);
      if (match) resolve(Number(match[1]));
    });
  });

/** Spawns `node [...nodeArgs] serverFile`, initializes it, and returns `request(method, params)`. */
export async function rawClient(serverFile, { nodeArgs = [], detached = false } = {}) {
  const child = spawn(process.execPath, [...nodeArgs, serverFile], { stdio: ['pipe', 'pipe', 'inherit'], env: { PATH: process.env.PATH }, detached });
  const waiting = new Map();
  let parts = [];
  let id = 0;
  child.stdout.on('data', (chunk) => {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      parts.push(chunk.subarray(start, i));
      const message = JSON.parse(Buffer.concat(parts).toString('utf8'));
      parts = [];
      start = i + 1;
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
    if (start < chunk.length) parts.push(chunk.subarray(start));
  });
  const request = (method, params) =>
    new Promise((resolve) => {
      const n = id++;
      waiting.set(n, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: n, method, params })}\n`);
    });
  await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } });
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  const close = () => {
    child.stdin.end();
    return new Promise((resolve) => child.once('exit', resolve));
  };
  return { child, request, close };
}

/** The raw floor: 2026-07-28 POSTs with `_meta` and routing headers, the answer parsed, nothing validated. */
export function rawHttpClient(port) {
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
