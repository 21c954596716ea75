import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedisStores } from './redis-stores.js';
import { testRedisUrl } from './test-redis-server.js';

let redis: { url: string; stop: () => Promise<void> };
beforeAll(async () => {
  redis = await testRedisUrl();
});
afterAll(async () => {
  await redis.stop();
});

describe('README Example section', () => {
  it('runs the example against a real Redis (plain JavaScript once the import is bound)', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /## Example\n[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const importLine = "import { connectRedisStores } from '@statemcp/redis-store';\n";
    expect(block).toContain(importLine);
    const lines: unknown[][] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<void>;
    const run = new AsyncFunction('connectRedisStores', 'process', 'console', block.replace(importLine, ''));
    const keyed = (options: Parameters<typeof connectRedisStores>[0]) => connectRedisStores({ ...options, keyPrefix: `readme:${globalThis.crypto.randomUUID()}:` });
    await run(keyed, { env: { REDIS_URL: redis.url } }, { log: (...args: unknown[]) => lines.push(args) });
    expect(lines).toEqual([['instance-a', 'stream-1']]);
  });
});
