// The activation form's fields (spec section 5, "Activation"), parsed. Mirrors
// events/src/flows/activation/validation.rs; both are held to
// tests/vectors/activation/validation.json.

import {
  CODE_WRONG,
  INVALID_CNPJ,
  INVALID_CPF,
  INVALID_CPF_CNPJ,
  INVALID_EMAIL,
  INVALID_PHONE,
  LICENCE_TOO_LONG,
  MISSING_LICENCE,
} from './texts';
import type { Field } from './types';
import { readPhone } from '../../lib/phone';
import { tidyCode } from '../../lib/typedCode';

export type DocumentKind = 'cpf' | 'cnpj';

export type Parsed<T> = { ok: T } | { error: string; field: Field };

export const LICENCE_MAX = 21;
export const PINCODE_LENGTH = 6;
export const PHONE_MAX = 15;
export const CPF_CNPJ_MAX = 18;

function stripMask(input: string, maskChars: string): string {
  return [...input.trim()].filter((c) => !maskChars.includes(c)).join('');
}

/** `55` + DDD + 9 digits: 11 national digits (a country prefix dropped), a DDD in use, third digit 6 to 9. */
export function parsePhone(input: string): Parsed<string> {
  const reading = readPhone(input);
  if (reading.kind !== 'national' || !'6789'.includes(reading.digits[2])) {
    return { error: INVALID_PHONE, field: 'phone' };
  }
  return { ok: `55${reading.digits}` };
}

/** DDD and last four digits: `(11) *****-4321`. */
export function maskPhone(msisdn: string): string {
  const national = msisdn.slice(2);
  return `(${national.slice(0, 2)}) *****-${national.slice(7)}`;
}

function mod11(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, value, i) => acc + value * weights[i], 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

const CPF_WEIGHTS = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * CPF (11 digits) or CNPJ (14 characters: 12 digits or capital letters, then 2 check digits,
 * each character worth its ASCII code minus 48), with valid check digits.
 */
export function parseCpfCnpj(input: string): Parsed<{ value: string; kind: DocumentKind }> {
  const value = stripMask(input, '.-/ ').toUpperCase();
  const generic = { error: INVALID_CPF_CNPJ, field: 'cpf_cnpj' as const };
  if (!/^[0-9A-Z]*$/.test(value)) return generic;
  const allSame = value.length > 0 && [...value].every((c) => c === value[0]);
  // Only a CNPJ has letters (the alphanumeric one): its message, whatever the length.
  if (/[A-Z]/.test(value) && value.length !== 14) return { error: INVALID_CNPJ, field: 'cpf_cnpj' };
  if (value.length === 11) {
    const fail = { error: INVALID_CPF, field: 'cpf_cnpj' as const };
    if (!/^\d{11}$/.test(value) || allSame) return fail;
    const digits = [...value].map(Number);
    const ok =
      mod11(digits.slice(0, 9), CPF_WEIGHTS.slice(1)) === digits[9] &&
      mod11(digits.slice(0, 10), CPF_WEIGHTS) === digits[10];
    return ok ? { ok: { value, kind: 'cpf' } } : fail;
  }
  if (value.length === 14) {
    const fail = { error: INVALID_CNPJ, field: 'cpf_cnpj' as const };
    if (allSame || !/^\d{2}$/.test(value.slice(12))) return fail;
    const values = [...value].map((c) => c.charCodeAt(0) - 48);
    const ok =
      mod11(values.slice(0, 12), CNPJ_WEIGHTS.slice(1)) === values[12] &&
      mod11(values.slice(0, 13), CNPJ_WEIGHTS) === values[13];
    return ok ? { ok: { value, kind: 'cnpj' } } : fail;
  }
  return generic;
}

/** Without spaces (tidyCode), not empty, at most 21 characters: a longer paste is said, never cut. */
export function parseLicence(input: string): Parsed<string> {
  const value = tidyCode(input, false);
  if (value.length === 0) return { error: MISSING_LICENCE, field: 'licence' };
  if ([...value].length > LICENCE_MAX) return { error: LICENCE_TOO_LONG, field: 'licence' };
  return { ok: value };
}

/** Exactly 6 digits. */
export function parsePincode(input: string): Parsed<string> {
  const value = input.trim();
  return /^\d{6}$/.test(value) ? { ok: value } : { error: CODE_WRONG, field: 'pincode' };
}

/** One `@`, a dotted domain without empty labels, no spaces, at most 254 characters. */
export function parseEmail(input: string): Parsed<string> {
  const value = input.trim().toLowerCase();
  const fail = { error: INVALID_EMAIL, field: 'email' as const };
  if (value.length === 0 || value.length > 254 || /\s/.test(value)) return fail;
  const at = value.indexOf('@');
  if (at < 0) return fail;
  const local = value.slice(0, at);
  const domain = value.slice(at + 1);
  const labels = domain.split('.');
  if (local.length === 0 || domain.includes('@') || labels.length < 2 || labels.some((l) => l.length === 0)) {
    return fail;
  }
  return { ok: value };
}
