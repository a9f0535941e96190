// The cloud form's field rules; the same as events/src/flows/cloud/validation.rs, pinned for
// both by tests/vectors/cloud/fields.json. Their messages are in texts.ts.

import { MESSAGES } from './texts';

export const SERIAL_MAX_LENGTH = 21;
export const CODE_LENGTH = 6;

export type Parsed = { ok: string } | { error: string };

/** `(##) #####-####`: 11 digits, area code 11 to 99; gives the msisdn (55 + digits). */
export function parsePhone(input: string): Parsed {
  const digits = input.replace(/\D/g, '');
  if (digits === '') return { error: MESSAGES.phoneRequired };
  if (digits.length !== 11 || digits.startsWith('0') || digits.startsWith('10')) {
    return { error: MESSAGES.phoneInvalid };
  }
  return { ok: `55${digits}` };
}

export function parseSerial(input: string): Parsed {
  const serial = input.trim();
  if (serial === '') return { error: MESSAGES.serialRequired };
  // Counted in characters, as the Rust side does.
  if ([...serial].length > SERIAL_MAX_LENGTH) return { error: MESSAGES.serialTooLong };
  return { ok: serial };
}

export function parseCode(input: string): Parsed {
  const code = input.trim();
  if (code === '') return { error: MESSAGES.codeRequired };
  if (!new RegExp(`^\\d{${CODE_LENGTH}}$`).test(code)) return { error: MESSAGES.codeInvalid };
  return { ok: code };
}
