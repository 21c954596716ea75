/** What every stack's client adapter offers the workloads. */
import type { ServerStats } from '../spec.js';

/** The stacks compared. `raw` is the hand-written JSON-RPC floor. */
export type StackName = 'statemcp' | 'sdk1' | 'sdk2' | 'raw';

export const STACK_LABELS: Readonly<Record<string, string>> = {
  statemcp: 'statemcp',
  sdk1: 'official 1.x',
  sdk2: 'official 2.x',
  raw: 'raw JSON-RPC floor',
  'raw-zod': 'raw JSON-RPC floor + zod (import, tool shapes)',
  floor: 'byte floor',
  json: 'JSON floor',
  'statemcp-fetch': 'statemcp, global fetch',
  'raw-fetch': 'raw JSON-RPC floor, global fetch',
  inspected: 'statemcp with a live inspector page',
  stalled: 'statemcp with a stalled inspector page',
  legacy: 'statemcp, handshake era',
  'legacy-async': 'statemcp, handshake era, async handler',
  default: 'statemcp, default era',
  'default-async': 'statemcp, default era, async handler',
};

export interface BenchClient {
  /** Calls `echo` and checks the text came back. */
  echo(text: string): Promise<void>;
  /** Calls `big` and returns the length of the text received. */
  big(bytes: number): Promise<number>;
  /** `tools/list`; returns the number of tools. */
  listTools(): Promise<number>;
  /** Calls `sleep` with a client-side timeout; resolves with whether it was rejected. */
  sleepUntilTimeout(timeoutMs: number): Promise<boolean>;
  /** Calls `bench_stats`. */
  stats(): Promise<ServerStats>;
  /** `notifications/cancelled` this client has sent. */
  cancelsSent(): number;
  close(): Promise<void>;
}

export interface ServerOptions {
  readonly manyTools?: boolean;
}

/** A connected in-process pair. */
export interface InMemoryPair {
  readonly client: BenchClient;
  /** Closes both sides. */
  close(): Promise<void>;
}

/** A client connected to a child process over stdio. */
export interface StdioConnection {
  readonly client: BenchClient;
  readonly pid: number;
}

export function expectText(result: unknown, text: string): void {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  if (content?.[0]?.text !== text) throw new Error(`echo returned ${JSON.stringify(result).slice(0, 200)}`);
}

export function textLength(result: unknown): number {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return content?.[0]?.text?.length ?? -1;
}

export function parseStats(result: unknown): ServerStats {
  const content = (result as { content?: { type: string; text?: string }[] }).content;
  return JSON.parse(content?.[0]?.text ?? '{}') as ServerStats;
}

/** Wraps `transport.send` to count outbound `notifications/cancelled`. */
export function countCancels<T extends { send: (message: never, ...rest: never[]) => Promise<void> }>(transport: T): () => number {
  let count = 0;
  const original = transport.send.bind(transport) as (...args: unknown[]) => Promise<void>;
  (transport as { send: unknown }).send = (message: { method?: string }, ...rest: unknown[]) => {
    if (message.method === 'notifications/cancelled') count++;
    return original(message, ...rest);
  };
  return () => count;
}

/** Resolves once `pid` no longer exists (polled every ms), or rejects after `limitMs`. */
export async function waitForExit(pid: number, limitMs = 10_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    if (performance.now() > deadline) throw new Error(`process ${pid} still alive after ${limitMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

/**
 * Node flags for every child-process server: `--expose-gc` (memory side channels) plus
 * whatever `BENCH_CHILD_NODE_FLAGS` holds (e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
/**
 * The environment of every child the harness spawns itself (the raw floors, the HTTP servers,
 * the byte floors): the variables the SDKs' stdio clients pass on by default, and nothing else.
 * Inheriting the whole environment would make those children pay for what the SDKs' children
 * never see (e.g. `NODE_EXTRA_CA_CERTS`, which costs every Node start ≈100 ms of certificate parsing).
 */
export function childEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER']) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export function childNodeArgs(): string[] {
  const extra = process.env.BENCH_CHILD_NODE_FLAGS?.split(' ').filter((s) => s.length > 0) ?? [];
  return ['--expose-gc', ...extra];
}
