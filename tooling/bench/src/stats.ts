/**
 * Small, dependency-free statistics for the bench: quantiles of latency samples and the
 * median/spread of a metric over repetitions.
 */

/** Linear-interpolated quantile of an ascending-sorted array (q in [0, 1]). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const lower = Math.floor(position);
  const upper = Math.ceil(position);
  const a = sorted[lower] ?? Number.NaN;
  const b = sorted[upper] ?? Number.NaN;
  return a + (b - a) * (position - lower);
}

/** Sorted copy. */
export function sortedCopy(values: Iterable<number>): number[] {
  return Array.from(values).sort((a, b) => a - b);
}

/** p50 and p99 of latency samples in ms. */
export function latencyPercentiles(samples: readonly number[]): { p50: number; p99: number } {
  const sorted = sortedCopy(samples);
  return { p50: quantileSorted(sorted, 0.5), p99: quantileSorted(sorted, 0.99) };
}

/** Median with min–max and interquartile range over repetitions. */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly q1: number;
  readonly q3: number;
  readonly n: number;
}

export function spread(values: readonly number[]): Spread {
  const finite = sortedCopy(values.filter((v) => Number.isFinite(v)));
  if (finite.length === 0) return { median: Number.NaN, min: Number.NaN, max: Number.NaN, q1: Number.NaN, q3: Number.NaN, n: 0 };
  return {
    median: quantileSorted(finite, 0.5),
    min: finite[0] ?? Number.NaN,
    max: finite[finite.length - 1] ?? Number.NaN,
    q1: quantileSorted(finite, 0.25),
    q3: quantileSorted(finite, 0.75),
    n: finite.length,
  };
}

/** Per-repetition ratios a[i] / b[i] (pairs with a missing side are skipped). */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y) || y === 0) continue;
    out.push(x / y);
  }
  return out;
}
