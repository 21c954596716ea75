import { statemcpVitest } from '@statemcp/vitest-config';

const config = statemcpVitest();

// The integration project runs with --expose-gc so heap-return tests (abandoned HTTP sessions
// evicted by the idle timeout) can force a collection before measuring.
for (const project of config.test?.projects ?? []) {
  if (typeof project === 'object' && 'test' in project && project.test?.name === 'integration') {
    project.test.execArgv = [...(project.test.execArgv ?? []), '--expose-gc'];
  }
}

export default config;
