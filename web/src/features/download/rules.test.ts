// Field rules against the shared vectors (events/tests/download_vectors.rs reads them too).

import { describe, expect, it } from 'vitest';
import fields from '../../../../tests/vectors/download/fields.json';
import { checkCode, checkPhone, isDesktopOs } from './rules';

interface PhoneCase {
  input: string;
  valid: boolean;
  message: string | null;
  msisdn: string | null;
}
interface CodeCase {
  input: string;
  valid: boolean;
  message: string | null;
}

const { phone, code } = fields as { phone: PhoneCase[]; code: CodeCase[] };

describe('phone field', () => {
  it.each(phone)('$input', (c) => {
    expect(checkPhone(c.input)).toEqual({ valid: c.valid, message: c.message, msisdn: c.msisdn });
  });
});

describe('code field', () => {
  it.each(code)('$input', (c) => {
    expect(checkCode(c.input)).toEqual({ valid: c.valid, message: c.message });
  });
});

describe('os parameter', () => {
  it('accepts only win_pc and mac', () => {
    expect(isDesktopOs('win_pc')).toBe(true);
    expect(isDesktopOs('mac')).toBe(true);
    expect(isDesktopOs('linux')).toBe(false);
    expect(isDesktopOs(undefined)).toBe(false);
  });
});
