// What one POST's events cost Redis itself, by Redis's own figures, with `RedisEventStore` as the
// workspace builds it (run it in two worktrees to compare layouts): SESSIONS sessions of POSTS POST
// streams each, stream ids as the HTTP transport makes them (`<key>.<n>`), every POST a priming
// event and a short answer appended in one task (one script, as for a fast tool on its owner), 50
// POSTs in flight over different sessions. Prints the script's Redis time per POST
// (`INFO commandstats`), the memory kept per POST (`used_memory`), and what is left once every
// session's streams are removed (`removeStreams`, as a session's end does). Rounds alternate nothing:
// the same workload ROUNDS times, each under a new key prefix.
//   node redis-session-log.mjs REDIS_URL [SESSIONS] [POSTS] [ROUNDS]
// Use a private redis-server (`redis-server --port <free> --save ''`): it resets the server's stats.
import { RedisConnection, RedisEventStore } from '@statemcp/redis-store';

const [url, sessionsArg, postsArg, roundsArg] = process.argv.slice(2);
if (url === undefined) throw new Error('usage: node redis-session-log.mjs REDIS_URL [SESSIONS] [POSTS] [ROUNDS]');
const sessions = Number(sessionsArg ?? 200);
const posts = Number(postsArg ?? 100);
const rounds = Number(roundsArg ?? 3);
const answer = { jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'hello' }] } };
const usedMemory = async (client) => Number(/used_memory:(\d+)/.exec(await client.info('memory'))?.[1]);
/** Redis's own CPU so far (user + system), µs. */
const usedCpu = async (client) => {
  const info = await client.info('cpu');
  return 1e6 * (Number(/used_cpu_user:([0-9.]+)/.exec(info)?.[1]) + Number(/used_cpu_sys:([0-9.]+)/.exec(info)?.[1]));
};
/** Redis's time in commands since the last reset (`INFO commandstats`), µs. */
const commandTime = async (client) => [...(await client.info('commandstats')).matchAll(/usec=(\d+)/g)].reduce((sum, match) => sum + Number(match[1]), 0);

for (let round = 0; round < rounds; round++) {
  const connection = await RedisConnection.connect({ url, keyPrefix: `log${Date.now()}.${round}:` });
  const client = connection.client;
  const store = new RedisEventStore(connection);
  const keyOf = (s) => `36.${String(s).padStart(8, '0')}-aaaa-4bbb-8ccc-123456789abc.${'x'.repeat(36)}`;
  const streamIds = [];
  for (let n = 1; n <= posts; n++) for (let s = 0; s < sessions; s++) streamIds.push(`${keyOf(s)}.${n}`);
  await client.configResetStat();
  const before = await usedMemory(client);
  const cpuBefore = await usedCpu(client);
  for (let start = 0; start < streamIds.length; start += 50) {
    const appends = [];
    for (const stream of streamIds.slice(start, start + 50)) appends.push(store.append(stream, undefined), store.append(stream, answer));
    await Promise.all(appends);
  }
  const stats = await client.info('commandstats');
  const script = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(stats);
  const kept = (await usedMemory(client)) - before;
  const cpuWrites = (await usedCpu(client)) - cpuBefore;
  const total = sessions * posts;
  await client.configResetStat();
  const cpuRemoval = await usedCpu(client);
  for (let s = 0; s < sessions; s++) await store.removeStreams(Array.from({ length: posts + 1 }, (_, n) => `${keyOf(s)}.${n}`));
  const removal = `removal ${((await commandTime(client)) / sessions).toFixed(0)} µs/session in commands, Redis CPU ${(((await usedCpu(client)) - cpuRemoval) / total).toFixed(1)} µs/POST`;
  const left = (await usedMemory(client)) - before;
  const keys = (await client.keys(`${connection.keyPrefix}*`)).length;
  console.log(
    `round ${round}: ${total} POSTs over ${sessions} sessions: script ${script === null ? '?' : (Number(script[2]) / Number(script[1])).toFixed(1)} µs/POST, ` +
      `Redis CPU ${(cpuWrites / total).toFixed(1)} µs/POST, ${Math.round(kept / total)} bytes kept/POST; ${removal}; after removal ${left} bytes, ${keys} keys`,
  );
  await connection.close();
}
