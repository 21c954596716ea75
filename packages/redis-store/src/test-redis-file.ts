import { createClient } from '@redis/client';
import { afterAll, afterEach, beforeAll } from 'vitest';

import { testRedisUrl } from './test-redis-server.js';

/** One test file's Redis, from {@link redisForFile}. */
export interface FileRedis {
  /** The private server's URL; set once the file's `beforeAll` has run. */
  readonly url: string;
  /** Run after the current test, newest first; a failing cleanup does not stop the others. */
  readonly cleanups: (() => Promise<void>)[];
  /** Zeroes the server's command counters (`CONFIG RESETSTAT`). */
  resetCommandStats(): Promise<void>;
  /** Calls per command since the last reset, by Redis's lower-case names (`evalsha`, `client|setinfo`…), this fixture's own `info` and `config|resetstat` left out. */
  commandCalls(): Promise<Record<string, number>>;
}

/**
 * Registers the calling test file's hooks: a private redis-server started before its tests (or
 * `STATEMCP_REDIS_URL`), an admin connection for the command counters, and the cleanups each
 * test pushes, run after it.
 */
export function redisForFile(): FileRedis {
  let server: { url: string; stop: () => Promise<void> } | undefined;
  let admin: ReturnType<typeof createClient> | undefined;
  const connected = (): ReturnType<typeof createClient> => {
    if (admin === undefined) throw new Error('the Redis of this test file is not started yet (used outside a test?)');
    return admin;
  };
  const cleanups: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await testRedisUrl();
    admin = createClient({ url: server.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.close();
    await server?.stop();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });

  return {
    get url() {
      if (server === undefined) throw new Error('the Redis of this test file is not started yet (used outside a test?)');
      return server.url;
    },
    cleanups,
    resetCommandStats: async () => {
      await connected().configResetStat();
    },
    commandCalls: async () => {
      const info = await connected().info('commandstats');
      const calls: Record<string, number> = {};
      for (const match of info.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) calls[match[1] ?? ''] = Number(match[2]);
      delete calls['info'];
      delete calls['config|resetstat'];
      return calls;
    },
  };
}
