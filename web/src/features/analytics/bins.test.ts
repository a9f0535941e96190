import { describe, expect, it } from 'vitest';
import type { FunnelGroup } from './api';
import { chartGroups, funnelBars, mergeDurations, perDaySeries, rebinDurations } from './bins';
import { CARRIER_BY_OS } from './fixtures';

const total = (xs: { count: number }[]) => xs.reduce((sum, x) => sum + x.count, 0);

describe('rebinDurations', () => {
  it('is empty without buckets (or with empty ones)', () => {
    expect(rebinDurations([])).toEqual([]);
    expect(rebinDurations([{ from_ms: 5000, count: 0 }])).toEqual([]);
  });

  it("keeps the contract's two neighbouring 2 % buckets apart", () => {
    expect(rebinDurations(CARRIER_BY_OS.groups[0].steps[1].durations)).toEqual([
      { from_ms: 4980, to_ms: 5080, count: 3 },
      { from_ms: 5080, to_ms: 5190, count: 1 },
    ]);
  });

  it('folds hundreds of buckets into at most 16 log bins with round bounds and the same total', () => {
    // Every 2 % bucket from 1 s to about 10 min, bucket i holding i + 1 attempts.
    const buckets = Array.from({ length: 322 }, (_, i) => ({ from_ms: Math.round(1000 * 1.02 ** i), count: i + 1 }));
    const bins = rebinDurations(buckets);
    expect(bins.length).toBeGreaterThanOrEqual(12);
    expect(bins.length).toBeLessThanOrEqual(16);
    expect(total(bins)).toBe(total(buckets));
    expect(bins[0].from_ms).toBeLessThanOrEqual(1000);
    expect(bins[bins.length - 1].to_ms).toBeGreaterThanOrEqual(buckets[buckets.length - 1].from_ms * 1.02);
    for (let i = 0; i < bins.length; i += 1) {
      expect(bins[i].to_ms).toBeGreaterThan(bins[i].from_ms);
      if (i > 0) expect(bins[i].from_ms).toBe(bins[i - 1].to_ms);
      // Two significant digits: 1 000, 1 500, 22 000, 330 000…
      const digits = String(bins[i].from_ms).replace(/0+$/, '');
      expect(digits.length).toBeLessThanOrEqual(2);
    }
    // Each bucket lands in the bin its lower bound falls in.
    const expected = bins.map((bin) => total(buckets.filter((b) => b.from_ms >= bin.from_ms && b.from_ms < bin.to_ms)));
    expect(bins.map((b) => b.count)).toEqual(expected);
  });

  it('honours a smaller bin count, unsorted input and an instant (0 ms) bucket', () => {
    const bins = rebinDurations(
      [
        { from_ms: 60_000, count: 2 },
        { from_ms: 0, count: 5 },
        { from_ms: 1_000, count: 1 },
      ],
      4,
    );
    expect(bins).toHaveLength(4);
    expect(bins[0].from_ms).toBe(0);
    expect(bins[0].count).toBe(5);
    expect(total(bins)).toBe(8);
    expect(bins[3].count).toBe(2);
  });
});

describe('perDaySeries', () => {
  it('fills the days without attempts between from and to with no rate', () => {
    const points = perDaySeries(
      [
        { day: '2026-11-03', entered: 10, converted: 0 },
        { day: '2026-11-01', entered: 40, converted: 22 },
      ],
      '2026-11-01',
      '2026-11-04',
    );
    expect(points).toEqual([
      { day: '2026-11-01', entered: 40, converted: 22, rate: 0.55 },
      { day: '2026-11-02', entered: 0, converted: 0, rate: null },
      { day: '2026-11-03', entered: 10, converted: 0, rate: 0 },
      { day: '2026-11-04', entered: 0, converted: 0, rate: null },
    ]);
  });

  it('crosses month ends and keeps only the given days without a range', () => {
    expect(perDaySeries([], '2026-10-30', '2026-11-02').map((p) => p.day)).toEqual([
      '2026-10-30',
      '2026-10-31',
      '2026-11-01',
      '2026-11-02',
    ]);
    expect(perDaySeries(CARRIER_BY_OS.per_day)).toEqual([{ day: '2026-11-01', entered: 40, converted: 22, rate: 0.55 }]);
  });
});

describe('funnel bars and groups', () => {
  const ios: FunnelGroup = {
    key: 'ios',
    attempts: 30,
    steps: CARRIER_BY_OS.groups[0].steps.map((s) => ({
      ...s,
      entered: s.key === 'started' ? 30 : 15,
      from_first: s.key === 'started' ? 1 : 0.5,
      durations: s.key === 'started' ? [] : [{ from_ms: 4980, count: 2 }],
    })),
  };
  const groups = [...CARRIER_BY_OS.groups, ios];

  it('puts each group’s entered and share of the first step on each step', () => {
    expect(funnelBars(CARRIER_BY_OS.steps, groups)).toEqual([
      { key: 'started', label: 'Abriu a página', entered: { android: 120, ios: 30 }, fromFirst: { android: 1, ios: 1 } },
      {
        key: 'form_sent',
        label: 'Enviou celular e CPF/CNPJ',
        entered: { android: 100, ios: 15 },
        fromFirst: { android: 0.8333, ios: 0.5 },
      },
    ]);
  });

  it('sums one step’s buckets over the groups', () => {
    expect(mergeDurations(groups, 'form_sent')).toEqual([
      { from_ms: 4980, count: 5 },
      { from_ms: 5080, count: 1 },
    ]);
    expect(mergeDurations(groups, 'started')).toEqual([]);
  });

  it('charts the largest groups in the reply’s order', () => {
    const many = [
      { key: 'a', attempts: 5 },
      { key: 'b', attempts: 50 },
      { key: 'c', attempts: 1 },
      { key: 'd', attempts: 20 },
    ];
    expect(chartGroups(many, 2).map((g) => g.key)).toEqual(['b', 'd']);
    expect(chartGroups(many, 6)).toEqual(many);
  });
});
