// What the owner of a session pays, in its own CPU, for the two Redis writes of a relayed answer
// (the append script, then the answer's PUBLISH once the ids are known) against one script that
// appends and publishes (the merge the relay's journal entries discuss). Same payloads as the
// cluster rows' echo answer; the writes are awaited one call after another, as on a sequential
// relay. Alternates the two shapes (ABBA); prints CPU µs per call of this process.
//   node relay-write-cost.mjs REDIS_URL [CALLS] [ROUNDS]
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../../packages/redis-store/package.json', import.meta.url));
const { createClient } = require('@redis/client');

const [url = 'redis://127.0.0.1:6379', calls = '2000', rounds = '10'] = process.argv.slice(2);
const client = createClient({ url });
const subscriber = createClient({ url });
await client.connect();
await subscriber.connect();
let delivered = 0;
await subscriber.subscribe('relay-write-cost:instance', () => void delivered++);

const APPEND = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', '1000', '*', 'm', ARGV[1])
redis.call('PEXPIRE', KEYS[1], 3600000)
return id`;
const APPEND_PUBLISH = `local id = redis.call('XADD', KEYS[1], 'MAXLEN', '=', '1000', '*', 'm', ARGV[1])
redis.call('PEXPIRE', KEYS[1], 3600000)
redis.call('PUBLISH', ARGV[2], ARGV[3] .. id .. ARGV[4])
return id`;
const append = await client.scriptLoad(APPEND);
const appendPublish = await client.scriptLoad(APPEND_PUBLISH);
const data = JSON.stringify({ jsonrpc: '2.0', id: 50, result: { content: [{ type: 'text', text: 'The quick brown fox jumps over the lazy dog' }] } });
const frames = (id) =>
  JSON.stringify({
    kind: 'frames',
    relay: 'fcc91bb0-a2e7-48af-8fba-ab18a0fdb28e',
    frames: [{ kind: 'head', status: 200, headers: [['content-type', 'text/event-stream'], ['cache-control', 'no-cache']] }, { kind: 'chunk', data: `id: s:${id}\ndata: ${data}\n\n` }, { kind: 'end' }],
  });
const key = (i) => `relay-write-cost:events:{s${i % 50}}`;

const shapes = {
  'append, then publish': async (i) => {
    const id = await client.evalSha(append, { keys: [key(i)], arguments: [data] });
    await client.publish('relay-write-cost:instance', frames(id));
  },
  'one script': async (i) => {
    const [before, after] = frames('@id@').split('@id@');
    await client.evalSha(appendPublish, { keys: [key(i)], arguments: [data, 'relay-write-cost:instance', before, after] });
  },
};
const names = Object.keys(shapes);
const results = Object.fromEntries(names.map((name) => [name, []]));
for (let round = 0; round < Number(rounds); round++) {
  const name = names[round % 4 === 0 || round % 4 === 3 ? 0 : 1];
  const shape = shapes[name];
  for (let i = 0; i < 300; i++) await shape(i);
  const start = process.cpuUsage();
  for (let i = 0; i < Number(calls); i++) await shape(i);
  const used = process.cpuUsage(start);
  results[name].push((used.user + used.system) / Number(calls));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const name of names) console.log(`${name}: CPU µs/call median ${median(results[name]).toFixed(1)} (${results[name].map((v) => v.toFixed(0)).join(' / ')})`);
console.log(`published ${delivered} answers`);
await client.del(Array.from({ length: 50 }, (_, i) => key(i)));
await client.quit();
await subscriber.quit();
