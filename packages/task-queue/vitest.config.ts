import { statemcpVitest } from '@statemcp/vitest-config';

// Real processes (each starts a TypeScript toolchain) on a shared machine: generous bounds.
export default statemcpVitest({ integrationTimeoutMs: 180_000 });
