import { describe, expect, it } from 'vitest';
import { formatAsOf, formatBound, formatCount, formatDay, formatDurationMs, formatPercent, groupLabel, platformLabel, variantOptionLabel } from './format';

describe('funnel numbers in pt-BR', () => {
  it('writes counts and percentages', () => {
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(formatPercent(0.8333)).toBe('83,3%');
    expect(formatPercent(1)).toBe('100%');
    expect(formatPercent(0.05)).toBe('5%');
    expect(formatPercent(null)).toBe('—');
  });

  it('writes times to convert', () => {
    expect(formatDurationMs(450)).toBe('0,45 s');
    expect(formatDurationMs(5200)).toBe('5,2 s');
    expect(formatDurationMs(19_000)).toBe('19 s');
    expect(formatDurationMs(190_000)).toBe('3 min 10 s');
    expect(formatDurationMs(180_000)).toBe('3 min');
    expect(formatDurationMs(7_500_000)).toBe('2 h 5 min');
    expect(formatDurationMs(270_000_000)).toBe('3 d 3 h');
    expect(formatDurationMs(null)).toBe('—');
    expect([formatBound(4980), formatBound(5080), formatBound(12_500), formatBound(0), formatBound(190_000)]).toEqual([
      '4,98 s',
      '5,08 s',
      '12,5 s',
      '0 s',
      '3 min 10 s',
    ]);
  });

  it('writes days, the update time in São Paulo and group names', () => {
    expect(formatDay('2026-11-01')).toBe('01/11/2026');
    expect(formatAsOf('2026-11-23T12:00:00Z')).toBe('23/11/2026, 09:00');
    expect(variantOptionLabel('carrier')).toBe('TIM (/seguranca/tim)');
    expect(groupLabel('todas', '')).toBe('Todas as tentativas');
    expect(groupLabel('broadband', 'variant')).toBe('Brisanet (/seguranca/ativarbrisanet)');
    expect(groupLabel('2026-11-02', 'day')).toBe('02/11/2026');
    expect(groupLabel('android', 'os')).toBe('android');
  });
});

describe('platformLabel', () => {
  it('names the device kinds the server records in Portuguese', () => {
    expect(['mobile', 'desktop', 'other', ''].map(platformLabel)).toEqual(['Celular', 'Computador', 'Outro', 'Não informado']);
  });
});
