// The cloud form's field rules; the same as events/src/flows/cloud/validation.rs, pinned for
// both by tests/vectors/cloud/fields.json. Their messages are in texts.ts.

import { readPhone } from '../../lib/phone';
import { tidyCode } from '../../lib/typedCode';
import { MESSAGES } from './texts';

export const SERIAL_MAX_LENGTH = 21;
export const CODE_LENGTH = 6;

export type Parsed = { ok: string } | { error: string };

/** `(##) #####-####`: 11 national digits (a country prefix dropped), a DDD in use; gives the msisdn (55 + digits). */
export function parsePhone(input: string): Parsed {
  const reading = readPhone(input);
  if (reading.kind === 'empty') return { error: MESSAGES.phoneRequired };
  if (reading.kind !== 'national') return { error: MESSAGES.phoneInvalid };
  return { ok: `55${reading.digits}` };
}

/** Without spaces and in capitals, as printed on the label (tidyCode); a longer paste is said, never cut. */
export function parseSerial(input: string): Parsed {
  const serial = tidyCode(input, true);
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
