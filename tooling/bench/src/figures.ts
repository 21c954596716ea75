/** How the report writes a figure: numbers, medians with their spread, paired ratios. */
import type { WorkloadResult } from './runner.js';
import { pairedRatios, spread, type Spread } from './stats.js';

export function fmt(value: number, digits: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function cell(s: Spread, digits: number): string {
  if (s.n === 0) return 'n/a';
  if (s.n === 1) return fmt(s.median, digits);
  return `${fmt(s.median, digits)} (${fmt(s.min, digits)}–${fmt(s.max, digits)})`;
}

export function ratioDigits(s: Spread): number {
  return Math.abs(s.median) >= 10 ? 1 : 2;
}

/** Median of per-repetition ratios statemcp / other for `metric`. */
export function ratio(result: WorkloadResult, metric: string, other: string, mine = 'statemcp'): Spread {
  const a = result.values[mine]?.[metric] ?? [];
  const b = result.values[other]?.[metric] ?? [];
  return spread(pairedRatios(a, b));
}

export function median(result: WorkloadResult | undefined, stack: string, metric: string): Spread {
  return spread(result?.values[stack]?.[metric] ?? []);
}

