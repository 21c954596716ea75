import { statemcpVitest } from '@statemcp/vitest-config';

// Real processes on a shared machine: generous bounds. Two files at a time: the two long ones
// (a rolling deploy, failovers on a Redis Cluster) mostly wait on real time, each on a Redis of
// its own (see tooling/bench/profiling/README.md, "Test time").
export default statemcpVitest({ integrationTimeoutMs: 180_000, maxWorkers: 2 });
