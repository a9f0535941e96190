// Pure transformations of the funnel reply for the charts (tested in bins.test.ts): the 2 %-wide
// duration buckets re-binned into a readable histogram, conversion per day, and the funnel bars.

import type { DurationBucket, FunnelGroup, PerDay } from './api';
import { addDays } from './query';

export interface HistogramBin {
  /** Lower bound, included (ms). */
  from_ms: number;
  /** Upper bound, excluded (ms). */
  to_ms: number;
  count: number;
}

/** The API's buckets are 2 % wide: a bucket starting at b holds times in [b, b × 1.02). */
export const BUCKET_RATIO = 1.02;
export const MAX_BINS = 16;

/** `x` rounded to `digits` significant digits, down or up. */
function roundSignificant(x: number, digits: number, mode: 'floor' | 'ceil' | 'round'): number {
  if (x <= 0) return 0;
  const scale = 10 ** (Math.floor(Math.log10(x)) - digits + 1);
  return Math[mode](x / scale) * scale;
}

/**
 * The many narrow log buckets as at most `maxBins` bins of equal width on a log scale from the
 * first bucket to the end of the last, with bounds rounded to 2 or 3 significant digits so the
 * axis reads "5,1 s – 6,3 s". Every bucket goes whole to the bin its lower bound falls in, so the
 * counts add up to the same total. A narrow range keeps one bin per 2 % bucket step.
 */
export function rebinDurations(buckets: readonly DurationBucket[], maxBins: number = MAX_BINS): HistogramBin[] {
  const used = buckets.filter((b) => b.count > 0 && Number.isFinite(b.from_ms) && b.from_ms >= 0);
  if (used.length === 0) return [];
  const sorted = [...used].sort((a, b) => a.from_ms - b.from_ms);
  // A zero lower bound (an instant step) would make the log scale start at -∞: start at 1 ms.
  const lo = Math.max(1, sorted[0].from_ms);
  const hi = Math.max(lo * BUCKET_RATIO, sorted[sorted.length - 1].from_ms * BUCKET_RATIO);
  const steps = Math.round(Math.log(hi / lo) / Math.log(BUCKET_RATIO));
  const n = Math.max(1, Math.min(maxBins, steps));
  const ratio = (hi / lo) ** (1 / n);
  const digits = ratio >= 1.1 ? 2 : 3;

  const edges: number[] = [roundSignificant(lo, digits, 'floor')];
  for (let i = 1; i < n; i += 1) {
    const edge = roundSignificant(lo * ratio ** i, digits, 'round');
    if (edge > edges[edges.length - 1]) edges.push(edge);
  }
  const last = roundSignificant(hi, digits, 'ceil');
  if (last > edges[edges.length - 1]) edges.push(last);
  else edges[edges.length - 1] = Math.max(edges[edges.length - 1], hi);
  if (sorted[0].from_ms < edges[0]) edges[0] = sorted[0].from_ms;

  const bins: HistogramBin[] = edges.slice(0, -1).map((from, i) => ({ from_ms: from, to_ms: edges[i + 1], count: 0 }));
  for (const bucket of sorted) {
    let i = bins.length - 1;
    while (i > 0 && bucket.from_ms < bins[i].from_ms) i -= 1;
    bins[i].count += bucket.count;
  }
  return bins;
}

export interface DayPoint {
  day: string;
  entered: number;
  converted: number;
  /** converted / entered, 0–1; null on a day nobody started (a gap in the line). */
  rate: number | null;
}

/**
 * One point per day from `from` to `to` (both included): the API lists the days that had
 * attempts; the days between without any are filled in with no rate, so the axis keeps time.
 * Days outside the range (should there be any) are kept, in order.
 */
export function perDaySeries(perDay: readonly PerDay[], from?: string, to?: string): DayPoint[] {
  const byDay = new Map<string, { entered: number; converted: number }>();
  for (const d of perDay) {
    const seen = byDay.get(d.day) ?? { entered: 0, converted: 0 };
    byDay.set(d.day, { entered: seen.entered + d.entered, converted: seen.converted + d.converted });
  }
  const days = new Set(byDay.keys());
  if (from && to && from <= to) {
    // Bounded, so a mistyped year cannot make the page count a million days.
    for (let day = from, i = 0; day <= to && i < 3660; day = addDays(day, 1), i += 1) days.add(day);
  }
  return [...days].sort().map((day) => {
    const { entered, converted } = byDay.get(day) ?? { entered: 0, converted: 0 };
    return { day, entered, converted, rate: entered > 0 ? converted / entered : null };
  });
}

export interface FunnelBar {
  key: string;
  label: string;
  /** Entered per group key. */
  entered: Record<string, number>;
  /** From first (0–1) per group key. */
  fromFirst: Record<string, number | null>;
}

/**
 * The funnel chart's rows, one per step of `steps` (the reply's common list): for each group,
 * how many entered and the share of the group's first step.
 */
export function funnelBars(steps: readonly { key: string; label: string }[], groups: readonly FunnelGroup[]): FunnelBar[] {
  return steps.map((step) => {
    const entered: Record<string, number> = {};
    const fromFirst: Record<string, number | null> = {};
    for (const group of groups) {
      const found = group.steps.find((s) => s.key === step.key);
      entered[group.key] = found?.entered ?? 0;
      fromFirst[group.key] = found ? found.from_first : null;
    }
    return { key: step.key, label: step.label, entered, fromFirst };
  });
}

/** The groups the chart draws: the `limit` with most attempts, in the reply's order. */
export function chartGroups<T extends { key: string; attempts: number }>(groups: readonly T[], limit: number): T[] {
  if (groups.length <= limit) return [...groups];
  const keep = new Set(
    [...groups]
      .sort((a, b) => b.attempts - a.attempts)
      .slice(0, limit)
      .map((g) => g.key),
  );
  return groups.filter((g) => keep.has(g.key));
}

/** One step's duration buckets summed over `groups` (the histogram of "all groups"). */
export function mergeDurations(groups: readonly FunnelGroup[], stepKey: string): DurationBucket[] {
  const byBucket = new Map<number, number>();
  for (const group of groups) {
    for (const bucket of group.steps.find((s) => s.key === stepKey)?.durations ?? []) {
      byBucket.set(bucket.from_ms, (byBucket.get(bucket.from_ms) ?? 0) + bucket.count);
    }
  }
  return [...byBucket.entries()].sort((a, b) => a[0] - b[0]).map(([from_ms, count]) => ({ from_ms, count }));
}
