import { statemcpVitest } from '@statemcp/vitest-config';

export default statemcpVitest({ integrationTimeoutMs: 120_000 });
