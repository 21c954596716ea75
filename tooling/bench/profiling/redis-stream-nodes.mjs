// What one POST's events cost Redis itself, by Redis's own figures, at several `stream-node-max-bytes`:
// `RedisEventStore` appends a priming event and a short answer to a new stream in one task (one
// script, as for a fast tool on its owner), 50 POSTs in flight; then the script's time per POST
// (`INFO commandstats`) and the memory it keeps per POST (`used_memory`). Settings alternate.
//   node redis-stream-nodes.mjs REDIS_URL [POSTS] [BYTES …]
// Changes the server's `stream-node-max-bytes` while it runs (restored to 4096 at the end): use a
// private redis-server (`redis-server --port <free> --save ''`), never a shared one.
import { RedisConnection, RedisEventStore } from '@statemcp/redis-store';

const [url, postsArg, ...bytesArgs] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: node redis-stream-nodes.mjs REDIS_URL [POSTS] [BYTES …]');
const posts = Number(postsArg ?? 20000);
const settings = bytesArgs.length > 0 ? bytesArgs.map(Number) : [4096, 512, 256, 4096, 512, 256];
const answer = { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'hello' }] } };
const connection = await RedisConnection.connect({ url, keyPrefix: `nodes${Date.now()}:` });
const client = connection.client;
const store = new RedisEventStore(connection);
const usedMemory = async () => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);

for (const [round, bytes] of settings.entries()) {
  await client.configSet('stream-node-max-bytes', String(bytes));
  await client.configResetStat();
  const before = await usedMemory();
  for (let start = 0; start < posts; start += 50) {
    const appends = [];
    for (let i = start; i < Math.min(posts, start + 50); i++) {
      const stream = `r${round}.${i}`;
      appends.push(store.append(stream, undefined), store.append(stream, answer));
    }
    await Promise.all(appends);
  }
  const stats = await client.info('commandstats');
  const script = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(stats);
  const kept = (await usedMemory()) - before;
  console.log(`stream-node-max-bytes ${String(bytes).padStart(4)}: script ${script === null ? '?' : (Number(script[2]) / Number(script[1])).toFixed(1)} µs/POST, ${Math.round(kept / posts)} bytes kept/POST`);
}
await client.configSet('stream-node-max-bytes', '4096');
await connection.close();
