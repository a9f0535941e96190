import { describe, expect, it } from 'vitest';
import type { FunnelGroup, FunnelStep } from './api';
import { compareGroups, periodLength, previousParams, previousPeriod } from './compare';

const step = (key: string, from_first: number | null, median_ms: number | null): FunnelStep => ({
  key,
  label: key,
  entered: 0,
  from_previous: null,
  from_first,
  dropped: 0,
  refusals: [],
  median_ms,
  p90_ms: null,
  durations: [],
});

const group = (steps: FunnelStep[]): FunnelGroup => ({ key: 'todas', attempts: 10, steps });

describe('the period before', () => {
  it('has the same length and ends the day before the first day', () => {
    expect(periodLength('2026-11-01', '2026-11-30')).toBe(30);
    expect(previousPeriod('2026-11-01', '2026-11-30')).toEqual({ from: '2026-10-02', to: '2026-10-31' });
    expect(previousPeriod('2026-03-01', '2026-03-01')).toEqual({ from: '2026-02-28', to: '2026-02-28' });
  });

  it('keeps every other parameter of the question', () => {
    const params = new URLSearchParams('flow=cloud&from=2026-11-10&to=2026-11-16&window=14&order=strict');
    expect(previousParams(params).toString()).toBe('flow=cloud&from=2026-11-03&to=2026-11-09&window=14&order=strict');
  });
});

describe('the change per step', () => {
  it('is the difference in points of conversion and in median time', () => {
    const now = group([step('a', 1, null), step('b', 0.625, 4_000)]);
    const before = group([step('a', 1, null), step('b', 0.5, 6_500)]);
    expect(compareGroups(now, before)).toEqual([
      { key: 'a', label: 'a', now: 1, before: 1, points: 0, medianNow: null, medianBefore: null, medianDelta: null },
      { key: 'b', label: 'b', now: 0.625, before: 0.5, points: 12.5, medianNow: 4_000, medianBefore: 6_500, medianDelta: -2_500 },
    ]);
  });

  it('has no figures for a group the period before did not have', () => {
    const [row] = compareGroups(group([step('a', 1, 10)]), undefined);
    expect(row).toMatchObject({ before: null, points: null, medianBefore: null, medianDelta: null });
  });
});
