/** The client adapters by stack name, and where the child-process fixtures are. */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as raw from './clients/raw.js';
import * as sdk1 from './clients/sdk1.js';
import * as sdk2 from './clients/sdk2.js';
import * as statemcp from './clients/statemcp.js';
import type { BenchClient, InMemoryPair, ServerOptions, StackName, StdioConnection } from './clients/types.js';

export interface Adapter {
  inMemory(options: ServerOptions, timing?: { ms: number }): Promise<InMemoryPair>;
  stdio(fixture: string, args: readonly string[]): Promise<StdioConnection>;
  http(url: string): Promise<BenchClient>;
}

export const ADAPTERS: Readonly<Record<StackName, Adapter>> = { statemcp, sdk1, sdk2, raw };

export const MCP_STACKS: readonly StackName[] = ['statemcp', 'sdk1', 'sdk2', 'raw'];

export function adapter(stack: string): Adapter {
  const found = (ADAPTERS as Record<string, Adapter | undefined>)[stack];
  if (found === undefined) throw new Error(`unknown stack ${stack}`);
  return found;
}

/**
 * Directory of the bundled fixtures: `dist/fixtures` next to the bundled harness. The
 * harness must run from its bundle (`node build.mjs` first).
 */
export function fixturePath(name: string): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return join(here, 'fixtures', `${name}.mjs`);
}
