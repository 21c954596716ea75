import type { UserConfig } from 'vitest/config';

/** Shared statemcp Vitest config with `unit` and `integration` projects. */
export function statemcpVitest(options?: { integrationTimeoutMs?: number; isolate?: boolean; maxWorkers?: number }): UserConfig;
