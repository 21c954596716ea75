// Shared Vitest configuration. Every package runs two kinds of test file:
//   unit         — `*.test.ts`, pure and deterministic (simulated clock, no sockets)
//   integration  — `*.integration.test.ts`, real processes and sockets on 127.0.0.1
// The `@statemcp/source` export condition makes workspace imports resolve to `src/` so
// tests never need a build.
//
// Both kinds run in one Vitest project: Vitest gives each project its own Vite server and its own
// workers, so with a `unit` and an `integration` project a package's sources were transformed and
// imported twice (see tooling/bench/profiling/README.md, "s22-testtime"). What told the two apart
// besides the file name, the timeouts, is set per file by `file-setup.js`: Vitest's defaults for a
// unit file, `integrationTimeoutMs` for an integration file.
//
// Test files share their worker's module graph (`isolate: false`): with a fresh one per file,
// importing the sources again for every file was most of `pnpm test`'s time (the protocol's unit
// tests: 17 s of CPU isolated, 4 s shared; see tooling/bench/profiling/README.md, "Test time").
// A file therefore leaves no state behind it: it restores the globals, timers and environment
// variables it changes (`afterEach`/`afterAll`). A package that cannot passes `isolate: true`.
//
// Files run one at a time by default (Vitest's default on 2 cores: cores − 1 = 1 worker). A package
// whose long files mostly wait on real time (processes, Redis, lock expiry) passes `maxWorkers` so
// they wait side by side; its files must then not share anything outside the process but a
// Redis server each starts for itself.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const resolve = { conditions: ['@statemcp/source', 'module', 'node', 'import', 'default'] };

/** @param {{ integrationTimeoutMs?: number, isolate?: boolean, maxWorkers?: number, execArgv?: string[] }} [options] */
export function statemcpVitest(options = {}) {
  return defineConfig({
    resolve,
    ssr: { resolve: { conditions: ['@statemcp/source', 'node', 'import', 'default'] } },
    test: {
      ...(options.maxWorkers === undefined ? {} : { maxWorkers: options.maxWorkers }),
      ...(options.execArgv === undefined ? {} : { execArgv: options.execArgv }),
      isolate: options.isolate ?? false,
      include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
      // (`examples/` holds unit files only.)
      exclude: ['examples/**/*.integration.test.ts', '**/node_modules/**', '**/dist/**'],
      setupFiles: [fileURLToPath(new URL('./file-setup.js', import.meta.url))],
      provide: { integrationTimeoutMs: options.integrationTimeoutMs ?? 60_000 },
      passWithNoTests: false,
    },
  });
}
