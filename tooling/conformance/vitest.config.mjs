// The runner scripts are plain ESM (they run before anything is built); so are their tests.
import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { include: ['test/**/*.test.mjs'] } });
