import type { UserConfig } from 'vitest/config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Test and hook timeout of `*.integration.test.ts` files, ms. */
    integrationTimeoutMs: number;
  }
}

/** Shared statemcp Vitest config: unit and integration files in one project, the source export condition. */
export function statemcpVitest(options?: { integrationTimeoutMs?: number; isolate?: boolean; maxWorkers?: number; execArgv?: string[] }): UserConfig;
