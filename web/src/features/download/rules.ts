// The desktop download's field rules (spec §5), the same as the Rust side
// (events/src/flows/download/validation.rs); tests/vectors/download/fields.json holds both.
// Their messages are in texts.ts.

import { readPhone } from '../../lib/phone';
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
 * Checks a typed phone (masked, bare digits or with a country prefix, lib/phone.ts). Fewer than
 * 11 national digits: not valid yet and no message; an area code not in use, a third digit other
 * than 9, more digits or other characters: the message.
 */
export function checkPhone(input: string): PhoneCheck {
  const reading = readPhone(input);
  if (reading.kind === 'empty' || reading.kind === 'incomplete') return { valid: false, message: null, msisdn: null };
  if (reading.kind === 'invalid' || reading.digits[2] !== '9') {
    return { valid: false, message: INVALID_PHONE, msisdn: null };
  }
  return { valid: true, message: null, msisdn: `+55${reading.digits}` };
}

export type CodeCheck = { valid: true; message: null } | { valid: false; message: string };

export function checkCode(input: string): CodeCheck {
  return /^\d{6}$/.test(input.trim()) ? { valid: true, message: null } : { valid: false, message: INVALID_CODE };
}
