/**
 * The mergeable histogram of report times (docs/reports.md): a fixed array of 120 counters, bucket 1 for
 * times under one second, bucket k >= 2 for [2^((k-2)/4), 2^((k-1)/4)) seconds. The database fills them
 * (report_bucket in migrations/20261128071000_create_report_facts.ts); this module merges and reads them.
 * Buckets are 1-based here as in PostgreSQL arrays; index 0 of a JS array is bucket 1.
 */
export const HISTOGRAM_BUCKETS = 120;

/** The seconds range [low, high) of a 1-based bucket. */
export function bucketBounds(bucket: number): { low: number; high: number } {
  if (bucket <= 1) return { low: 0, high: 1 };
  return { low: 2 ** ((bucket - 2) / 4), high: bucket >= HISTOGRAM_BUCKETS ? Infinity : 2 ** ((bucket - 1) / 4) };
}

/** The value a bucket stands for: its geometric middle (0.5 s for the first, the low bound for the last). */
export function bucketValue(bucket: number): number {
  if (bucket <= 1) return 0.5;
  if (bucket >= HISTOGRAM_BUCKETS) return bucketBounds(bucket).low;
  return 2 ** ((bucket - 1.5) / 4);
}

export function emptyHistogram(): number[] {
  return new Array<number>(HISTOGRAM_BUCKETS).fill(0);
}

/** Adds `other` into `into` (counters add: histograms of days, agents and channels merge exactly). */
export function mergeInto(into: number[], other: readonly number[] | null | undefined): number[] {
  if (!other) return into;
  for (let i = 0; i < HISTOGRAM_BUCKETS; i++) into[i] += Number(other[i] ?? 0);
  return into;
}

/**
 * The q-quantile (0 < q <= 1) by nearest rank: the value of the bucket holding the ceil(q·n)-th smallest
 * time, in seconds with one decimal. Null for an empty histogram.
 */
export function quantile(hist: readonly number[], q: number): number | null {
  let total = 0;
  for (const c of hist) total += c;
  if (total === 0) return null;
  const rank = Math.max(1, Math.ceil(q * total));
  let seen = 0;
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i];
    if (seen >= rank) return Math.round(bucketValue(i + 1) * 10) / 10;
  }
  return Math.round(bucketValue(hist.length) * 10) / 10;
}

/** Mean in seconds (1 decimal) from a sum of milliseconds and a count; null when nothing was measured. */
export function meanSeconds(sumMs: number, count: number): number | null {
  if (!count) return null;
  return Math.round(sumMs / count / 100) / 10;
}
