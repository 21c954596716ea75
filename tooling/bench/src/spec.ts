/**
 * What every stack's benchmark server offers, so the same workload means the same work on
 * each: an `echo` tool, a `big` tool (a text result of N bytes), a `sleep` tool that only
 * ends when cancelled, a `bench_stats` tool (GC, then memory and counters), and optionally
 * 100 extra tools for `tools/list`.
 */

export const ECHO_TOOL = 'echo';
export const BIG_TOOL = 'big';
export const SLEEP_TOOL = 'sleep';
export const STATS_TOOL = 'bench_stats';

/** The text each echo call sends (a typical short tool argument). */
export const ECHO_TEXT = 'The quick brown fox jumps over the lazy dog';

/** 1 MiB. */
export const MIB = 1024 * 1024;

/** Extra tools of the `tools/list` workload: with the 4 base tools, 100 registered in all. */
export const MANY_TOOLS = 96;

/** Name, description and argument names of extra tool `i` (identical on every stack). */
export function extraTool(i: number): { name: string; description: string } {
  const n = String(i).padStart(3, '0');
  return { name: `tool_${n}`, description: `Benchmark tool number ${n}: takes a query string and a limit.` };
}

/** Counters a server keeps for the timeout workload. */
export interface ServerCounters {
  /** `sleep` handlers started. */
  started: number;
  /** `sleep` handlers whose signal was aborted (the cancellation reached the handler). */
  aborted: number;
}

/** What `bench_stats` returns (as JSON text). */
export interface ServerStats extends ServerCounters {
  readonly heapUsed: number;
  readonly rss: number;
  readonly external: number;
  readonly arrayBuffers: number;
}

/**
 * The repeated unit of {@link bigText}: ordinary words with double quotes, backslashes, tabs
 * and newlines, so serializing the text exercises JSON string escaping (16 of its 53
 * characters need one) as real tool output (code, logs, tables, paths) does.
 */
const BIG_TEXT_UNIT = 'row 42\t"name": "C:\\Users\\bench\\file.txt"\tsaid \\"hi\\"\n';

const bigTexts = new Map<number, string>();

/**
 * A cached text of `bytes` ASCII characters (so `bytes` UTF-8 bytes) with quotes,
 * backslashes, tabs and newlines; its JSON encoding is longer. Building it is not what we
 * measure.
 */
export function bigText(bytes: number): string {
  let text = bigTexts.get(bytes);
  if (text === undefined) {
    text = BIG_TEXT_UNIT.repeat(Math.ceil(bytes / BIG_TEXT_UNIT.length)).slice(0, bytes);
    bigTexts.set(bytes, text);
  }
  return text;
}

/** The raw floor's JSON-RPC response line carrying {@link bigText} (what the byte floor writes). */
export function bigResponseLine(bytes: number): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: bigText(bytes) }] } });
}

/** Runs a full GC (twice, so weak/finalizable objects go too) when `--expose-gc` is on. */
export function fullGc(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return;
  gc();
  gc();
}

/** GC, then this process's memory and the counters. */
export function serverStats(counters: ServerCounters): ServerStats {
  fullGc();
  const m = process.memoryUsage();
  return { started: counters.started, aborted: counters.aborted, heapUsed: m.heapUsed, rss: m.rss, external: m.external, arrayBuffers: m.arrayBuffers };
}

/** Resolves when `signal` aborts; never holds a timer. */
export function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
