// The desktop download's field rules (spec §5), the same as the Rust side
// (events/src/flows/download/validation.rs); tests/vectors/download/fields.json holds both.
// Their messages are in texts.ts.

import { INVALID_CODE, INVALID_PHONE } from './texts';

export const PHONE_DIGITS = 11;
export const CODE_LENGTH = 6;
export const VALID_OS = ['win_pc', 'mac'] as const;
export type DesktopOs = (typeof VALID_OS)[number];

export function isDesktopOs(value: string | undefined): value is DesktopOs {
  return value !== undefined && (VALID_OS as readonly string[]).includes(value);
}

export type PhoneCheck =
  | { valid: true; message: null; msisdn: string }
  | { valid: false; message: string | null; msisdn: null };

/**
 * Checks a typed phone (masked or bare digits). Fewer than 11 digits: not valid yet and no
 * message; 11 digits failing `(DD) 9NNNN-NNNN`, more digits or other characters: the message.
 */
export function checkPhone(input: string): PhoneCheck {
  let digits = '';
  for (const c of input) {
    if (c >= '0' && c <= '9') digits += c;
    else if (!'()- '.includes(c)) return { valid: false, message: INVALID_PHONE, msisdn: null };
  }
  if (digits.length < PHONE_DIGITS) return { valid: false, message: null, msisdn: null };
  if (digits.length > PHONE_DIGITS || digits[2] !== '9') {
    return { valid: false, message: INVALID_PHONE, msisdn: null };
  }
  return { valid: true, message: null, msisdn: `+55${digits}` };
}

export type CodeCheck = { valid: true; message: null } | { valid: false; message: string };

export function checkCode(input: string): CodeCheck {
  return /^\d{6}$/.test(input.trim()) ? { valid: true, message: null } : { valid: false, message: INVALID_CODE };
}
