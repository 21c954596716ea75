import { statemcpVitest } from '@statemcp/vitest-config';

const base = statemcpVitest({ integrationTimeoutMs: 60_000 });

// One file at a time: several files start real servers (HTTP, Redis, an authorization server)
// on loopback, and two cores are shared with the rest of `pnpm test`.
export default { ...base, test: { ...base.test, fileParallelism: false } };
