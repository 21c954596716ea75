import { statemcpVitest } from '@statemcp/vitest-config';

// Two files at a time: the integration files mostly wait on child processes (shutdown graces,
// timeouts, late starts), 20 s of CPU in 38 s alone. Each spawns its own processes and binds
// only ports the system picks (see tooling/bench/profiling/README.md, "Test time").
export default statemcpVitest({ maxWorkers: 2 });
