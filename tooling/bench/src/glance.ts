/**
 * The table a reader takes in within a minute: one line per headline row, statemcp's median and
 * its paired ratios to the official SDK 1.x and 2.x and to the raw floor of the same row (for a
 * row where lower is better, a ratio under 1 is statemcp ahead; a row marked `values` shows the
 * others' medians instead).
 */
import { cell, median, ratio, ratioDigits } from './figures.js';
import type { WorkloadResult } from './runner.js';
import type { Spread } from './stats.js';

interface GlanceRow {
  readonly label: string;
  readonly id: string;
  readonly metric: string;
  /**
   * Show each stack's own median instead of a ratio: for a figure near zero (heap kept after a
   * round that frees what it took), where a ratio says nothing.
   */
  readonly values?: boolean;
}

const ROWS: readonly GlanceRow[] = [
  { label: 'handshake in memory, p50 ms', id: 'handshake.memory', metric: 'p50' },
  { label: 'tools/call in memory, sequential, calls/s', id: 'call.memory.seq', metric: 'callsPerSec' },
  { label: 'tools/call in memory, 64 in flight, calls/s', id: 'call.memory.c64', metric: 'callsPerSec' },
  { label: 'tools/call in memory, 2026-07-28, calls/s', id: 'call.memory.modern', metric: 'callsPerSec' },
  { label: 'tools/call over stdio, sequential, calls/s', id: 'call.stdio.seq', metric: 'callsPerSec' },
  { label: 'tools/call over stdio, 64 in flight, calls/s', id: 'call.stdio.c64', metric: 'callsPerSec' },
  { label: '1 MiB result over stdio, MiB/s', id: 'stdio.1mib', metric: 'mibPerSec' },
  { label: 'stdio cold start, ms', id: 'stdio.lifecycle', metric: 'coldMs' },
  { label: 'stdio shutdown, ms', id: 'stdio.lifecycle', metric: 'shutdownMs' },
  { label: 'Streamable HTTP, 1 client sequential, calls/s', id: 'call.http.seq', metric: 'callsPerSec' },
  { label: 'Streamable HTTP, 16 clients × 8, calls/s', id: 'call.http.16x8', metric: 'callsPerSec' },
  { label: 'Streamable HTTP 2026-07-28 stateless, 1 client, calls/s', id: 'call.http.modern', metric: 'callsPerSec' },
  { label: 'Streamable HTTP 2026-07-28 stateless, 16 clients × 8, calls/s', id: 'call.http.modern16x8', metric: 'callsPerSec' },
  { label: 'HTTP sessions holding a GET stream, heap KB per session', id: 'http.sessions', metric: 'heapKB' },
  { label: "1 000 timed-out requests, server heap KB kept (each stack's own figure, not a ratio)", id: 'timeouts.stdio', metric: 'serverKB', values: true },
];

function otherCell(result: WorkloadResult, row: GlanceRow, other: string, digits: number): string {
  if (!result.stacks.includes(other)) return '—';
  if (row.values === true) return cell(median(result, other, row.metric), digits);
  const r: Spread = ratio(result, row.metric, other);
  return r.n === 0 ? 'n/a' : `${cell(r, ratioDigits(r))}×`;
}

/** Markdown lines of the table (none when the run has none of its rows). */
export function atAGlance(results: readonly WorkloadResult[]): string[] {
  const byId = new Map(results.map((r) => [r.id, r]));
  const lines: string[] = [];
  for (const row of ROWS) {
    const result = byId.get(row.id);
    const definition = result?.metrics.find((m) => m.key === row.metric);
    if (result === undefined || definition === undefined || !result.stacks.includes('statemcp')) continue;
    const mine = median(result, 'statemcp', row.metric);
    const better = definition.higherIsBetter ? 'higher' : 'lower';
    const others = ['sdk1', 'sdk2', 'raw'].map((other) => otherCell(result, row, other, definition.digits));
    lines.push(`| ${row.label} | ${better} | ${cell(mine, definition.digits)} | ${others.join(' | ')} |`);
  }
  if (lines.length === 0) return [];
  return ['| row | better | statemcp | ÷ official 1.x | ÷ official 2.x | ÷ raw floor |', '|---|:---:|---:|---:|---:|---:|', ...lines];
}
