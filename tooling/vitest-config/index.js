// Shared Vitest configuration. Every package gets two projects:
//   unit         — `src/**/*.test.ts`, pure and deterministic (simulated clock, no sockets)
//   integration  — `**/*.integration.test.ts`, real processes and sockets on 127.0.0.1
// The `@statemcp/source` export condition makes workspace imports resolve to `src/` so
// tests never need a build.
import { defineConfig } from 'vitest/config';

const resolve = { conditions: ['@statemcp/source', 'module', 'node', 'import', 'default'] };

/** @param {{ integrationTimeoutMs?: number }} [options] */
export function statemcpVitest(options = {}) {
  return defineConfig({
    resolve,
    ssr: { resolve: { conditions: ['@statemcp/source', 'node', 'import', 'default'] } },
    test: {
      projects: [
        {
          resolve,
          ssr: { resolve: { conditions: ['@statemcp/source', 'node', 'import', 'default'] } },
          test: {
            name: 'unit',
            include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
            exclude: ['**/*.integration.test.ts', '**/node_modules/**', '**/dist/**'],
          },
        },
        {
          resolve,
          ssr: { resolve: { conditions: ['@statemcp/source', 'node', 'import', 'default'] } },
          test: {
            name: 'integration',
            include: ['src/**/*.integration.test.ts', 'test/**/*.integration.test.ts'],
            exclude: ['**/node_modules/**', '**/dist/**'],
            testTimeout: options.integrationTimeoutMs ?? 60_000,
            hookTimeout: options.integrationTimeoutMs ?? 60_000,
          },
        },
      ],
      passWithNoTests: false,
    },
  });
}
