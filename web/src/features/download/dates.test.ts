import { describe, expect, it } from 'vitest';
import { formatFirstLogin, formatLastLogin } from './dates';

// 2025-03-05T12:00:00Z is 09:00 in Brasília (UTC-3).
const MARCH_5_NOON_UTC = Date.UTC(2025, 2, 5, 12, 0, 0) / 1000;

describe('device dates in pt-BR', () => {
  it("last login is 'DD de month, HH:MM' in Brasília time", () => {
    expect(formatLastLogin(MARCH_5_NOON_UTC)).toBe('05 de março, 09:00');
    expect(formatLastLogin(Date.UTC(2024, 11, 31, 23, 59) / 1000)).toBe('31 de dezembro, 20:59');
  });

  it("first login is 'DD de mon de YYYY'", () => {
    expect(formatFirstLogin(Date.UTC(2023, 10, 14, 15, 0) / 1000)).toBe('14 de nov de 2023');
    // Just after midnight UTC on New Year is still the previous year in Brasília.
    expect(formatFirstLogin(Date.UTC(2024, 0, 1, 1, 0) / 1000)).toBe('31 de dez de 2023');
  });
});
