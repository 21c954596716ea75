import { statemcpVitest } from '@statemcp/vitest-config';

// --expose-gc so heap-return tests (abandoned HTTP sessions evicted by the idle timeout) can force a
// collection before measuring.
const config = statemcpVitest({ execArgv: ['--expose-gc'] });

// Vitest hands the SSR conditions to Node as `--conditions`, which also steer `require()`: with
// `import` among them, CommonJS packages whose exports map lists `import` first (the `is-promise`
// under Express's router) would `require` their ESM build. Node adds `import` to ESM imports by
// itself, so it is left out here.
const conditions = config.ssr?.resolve?.conditions;
if (config.ssr?.resolve !== undefined && conditions !== undefined) {
  config.ssr.resolve.conditions = conditions.filter((condition: string) => condition !== 'import');
}

export default config;
