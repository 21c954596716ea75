// Runs before each test file (`setupFiles`). Files share their worker (`isolate: false`), so what
// one file changes on the global object or in Vitest's config would reach the files after it:
// - timeouts: an integration file (`*.integration.test.ts`) gets the package's
//   `integrationTimeoutMs` for its tests and hooks, a unit file Vitest's defaults (5 s, 10 s);
// - the fetch API's globals: a framework adapter may replace `Request` and `Response` on the
//   global object (`@hono/node-server` does when it serves); they are put back after every file.
import { afterAll, expect, inject, vi } from 'vitest';

const integration = (expect.getState().testPath ?? '').endsWith('.integration.test.ts');
const integrationTimeoutMs = inject('integrationTimeoutMs');

vi.setConfig(integration ? { testTimeout: integrationTimeoutMs, hookTimeout: integrationTimeoutMs } : { testTimeout: 5_000, hookTimeout: 10_000 });

const FETCH_GLOBALS = ['fetch', 'Request', 'Response', 'Headers'];
const ORIGINALS = Symbol.for('@statemcp/vitest-config/fetch-globals');
// Taken once per worker, before any test file ran.
globalThis[ORIGINALS] ??= Object.fromEntries(FETCH_GLOBALS.map((name) => [name, globalThis[name]]));

afterAll(() => {
  for (const name of FETCH_GLOBALS) globalThis[name] = globalThis[ORIGINALS][name];
});
