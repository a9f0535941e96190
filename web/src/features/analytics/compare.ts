// "Compared with the period before": the same question over the preceding period of the same
// length, and the change per step in conversion (from the first step) and in time to convert.

import type { FunnelGroup, FunnelReply } from './api';
import { addDays } from './query';

/** Whole days from `from` to `to`, both included. */
export function periodLength(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The period of the same length that ends the day before `from`. */
export function previousPeriod(from: string, to: string): { from: string; to: string } {
  return { from: addDays(from, -periodLength(from, to)), to: addDays(from, -1) };
}

/** The API's parameters with the dates moved to the period before. */
export function previousParams(params: URLSearchParams): URLSearchParams {
  const before = new URLSearchParams(params);
  const period = previousPeriod(params.get('from') ?? '', params.get('to') ?? '');
  before.set('from', period.from);
  before.set('to', period.to);
  return before;
}

export interface StepChange {
  key: string;
  label: string;
  /** Conversion from the first step, 0–1; null when nothing entered. */
  now: number | null;
  before: number | null;
  /** now − before, in percentage points; null when either side has no figure. */
  points: number | null;
  medianNow: number | null;
  medianBefore: number | null;
  /** medianNow − medianBefore in ms. */
  medianDelta: number | null;
}

const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);

/** Step by step, the group now against the group with the same key before (absent: no figures). */
export function compareGroups(now: FunnelGroup, before: FunnelGroup | undefined): StepChange[] {
  return now.steps.map((step, i) => {
    const old = before?.steps[i]?.key === step.key ? before.steps[i] : undefined;
    const points = minus(step.from_first, old?.from_first ?? null);
    return {
      key: step.key,
      label: step.label,
      now: step.from_first,
      before: old?.from_first ?? null,
      points: points === null ? null : Math.round(points * 1000) / 10,
      medianNow: step.median_ms,
      medianBefore: old?.median_ms ?? null,
      medianDelta: minus(step.median_ms, old?.median_ms ?? null),
    };
  });
}

/** Each group of `now` with its changes against `before`'s group of the same key. */
export function compareReplies(now: FunnelReply, before: FunnelReply): { key: string; attemptsBefore: number; steps: StepChange[] }[] {
  return now.groups.map((group) => {
    const old = before.groups.find((g) => g.key === group.key);
    return { key: group.key, attemptsBefore: old?.attempts ?? 0, steps: compareGroups(group, old) };
  });
}
