import { statemcpVitest } from '@statemcp/vitest-config';

const config = statemcpVitest();

for (const project of config.test?.projects ?? []) {
  if (typeof project !== 'object' || !('test' in project)) continue;
  // Vitest hands the SSR conditions to Node as `--conditions`, which also steer `require()`:
  // with `import` among them, CommonJS packages whose exports map lists `import` first (the
  // `is-promise` under Express's router) would `require` their ESM build. Node adds `import`
  // to ESM imports by itself, so it is left out here.
  if (project.ssr?.resolve?.conditions !== undefined) {
    project.ssr.resolve.conditions = project.ssr.resolve.conditions.filter((condition: string) => condition !== 'import');
  }
  // The integration project runs with --expose-gc so heap-return tests (abandoned HTTP sessions
  // evicted by the idle timeout) can force a collection before measuring.
  if (project.test?.name === 'integration') {
    project.test.execArgv = [...(project.test.execArgv ?? []), '--expose-gc'];
  }
}

export default config;
