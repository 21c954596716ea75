import { statemcpVitest } from '@statemcp/vitest-config';

const base = statemcpVitest({ integrationTimeoutMs: 90_000 });

// One file at a time: the suite measures exit latency, memory and socket pools of real
// processes, which other files running beside it on a 2-core machine would distort.
export default { ...base, test: { ...base.test, fileParallelism: false } };
