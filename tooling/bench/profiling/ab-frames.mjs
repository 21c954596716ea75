// A/B of the stdio transport's per-message path (framing, parse, send, frame writer) in ONE
// process, over a real socket (a libuv stream, as stdio pipes are): a StdioServerTransport of
// each build (`snapshot-dist.sh DIR`) answers echo requests from a hand-written peer over a
// Unix socket, in batches that alternate between the builds, so load from other processes hits
// both alike. The peer's own cost is the same for every build. Prints the median CPU µs per
// round trip per build and the paired ratio to the first. The dir `raw` stands for a
// hand-written server side (setEncoding, split on '\n', JSON.parse; JSON.stringify + '\n', one
// write, an already settled promise): the floor of the transport's own per-message work.
//   node ab-frames.mjs ROUNDS BATCH IN_FLIGHT dirA dirB …
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [rounds, batch, inFlight, ...dirs] = process.argv.slice(2);
if (dirs.length < 2) throw new Error('usage: node ab-frames.mjs ROUNDS BATCH IN_FLIGHT dirA dirB …');

/** The floor: what a hand-written newline-delimited JSON server side does per message. */
class RawServerTransport {
  #stdin;
  #stdout;
  constructor({ stdin, stdout }) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }
  async start(sink) {
    let rest = '';
    this.#stdin.setEncoding('utf8');
    this.#stdin.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) if (line.length > 0) sink.onMessage(JSON.parse(line));
    });
  }
  send(message) {
    this.#stdout.write(`${JSON.stringify(message)}\n`);
    return Promise.resolve();
  }
}

/** A StdioServerTransport of the build in `dir` on one end of a socket, a raw peer on the other. */
async function pair(dir, index) {
  const { StdioServerTransport } = dir === 'raw' ? { StdioServerTransport: RawServerTransport } : await import(pathToFileURL(join(dir, 'node_modules/@statemcp/stdio-transport/dist/index.js')).href);
  const path = `/tmp/ab-frames-${process.pid}-${index}.sock`;
  rmSync(path, { force: true });
  const server = createServer();
  server.listen(path);
  await once(server, 'listening');
  const peer = createConnection(path);
  const [socket] = await once(server, 'connection');
  const transport = new StdioServerTransport({ stdin: socket, stdout: socket, exitOnClose: false });
  await transport.start({
    onMessage(message) {
      const reply = { jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: message.params.arguments.text }] } };
      transport.send(reply).catch(() => undefined);
    },
    onClose() {},
    onError() {},
  });
  let left = 0;
  let done = () => undefined;
  let id = 0;
  let rest = '';
  const request = () => peer.write(`${JSON.stringify({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hello world' } } })}\n`);
  peer.setEncoding('utf8');
  peer.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) {
      JSON.parse(line);
      left -= 1;
      if (left === 0) done();
      else if (left >= Number(inFlight)) request();
    }
  });
  /** `n` round trips, `IN_FLIGHT` at a time; resolves with the CPU µs they took. */
  const run = async (n) => {
    const started = process.cpuUsage();
    left = n;
    const finished = new Promise((resolve) => (done = resolve));
    for (let i = 0; i < Math.min(n, Number(inFlight)); i++) request();
    await finished;
    const used = process.cpuUsage(started);
    return used.user + used.system;
  };
  return { run, close: () => { peer.destroy(); server.close(); rmSync(path, { force: true }); } };
}

const pairs = [];
for (const [index, dir] of dirs.entries()) pairs.push(await pair(dir, index));
for (const p of pairs) await p.run(5000);
const samples = dirs.map(() => []);
for (let round = 0; round < Number(rounds); round++) {
  for (const [index, p] of pairs.entries()) samples[index].push((await p.run(Number(batch))) / Number(batch));
}
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];
for (const [index, dir] of dirs.entries()) {
  const ratio = median(samples[index].map((us, round) => us / samples[0][round]));
  console.log(`${dir}: ${median(samples[index]).toFixed(2)} µs CPU per round trip${index === 0 ? '' : ` | paired ratio ÷ ${dirs[0]} ${ratio.toFixed(3)}`}`);
}
for (const p of pairs) p.close();
