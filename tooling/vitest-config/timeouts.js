// Runs before each test file (`setupFiles`): an integration file (`*.integration.test.ts`) gets
// the package's `integrationTimeoutMs` for its tests and hooks, a unit file Vitest's defaults
// (5 s, 10 s). Set both ways because files share their worker (`isolate: false`).
import { expect, inject, vi } from 'vitest';

const integration = (expect.getState().testPath ?? '').endsWith('.integration.test.ts');
const integrationTimeoutMs = inject('integrationTimeoutMs');

vi.setConfig(integration ? { testTimeout: integrationTimeoutMs, hookTimeout: integrationTimeoutMs } : { testTimeout: 5_000, hookTimeout: 10_000 });
