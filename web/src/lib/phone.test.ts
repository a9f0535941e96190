import { describe, expect, it } from 'vitest';
import vectors from '../../../tests/vectors/phone/national.json';
import { pastedPhone, readPhone } from './phone';

describe('readPhone (tests/vectors/phone/national.json)', () => {
  it.each(vectors.cases)('$input', (c) => {
    const reading = readPhone(c.input);
    expect(reading.kind).toBe(c.reading);
    if (reading.kind === 'national') expect(reading.digits).toBe(c.national);
  });
});

describe('pastedPhone', () => {
  it('gives the mask the national digits of a number pasted with its country code', () => {
    expect(pastedPhone('+55 11 91000-0001')).toBe('11910000001');
    expect(pastedPhone('+55 (11) 91000-0001')).toBe('11910000001');
    expect(pastedPhone('011 91000-0001')).toBe('11910000001');
  });

  it('leaves a national number and a single typed character alone', () => {
    expect(pastedPhone('(11) 91000-0001')).toBe('(11) 91000-0001');
    expect(pastedPhone('5')).toBe('5');
  });
});
