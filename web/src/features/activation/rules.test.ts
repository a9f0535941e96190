// The TypeScript validators against the shared field vectors (the Rust ones run the same file).
import { describe, expect, it } from 'vitest';
import vectors from '../../../../tests/vectors/activation/validation.json';
import { parseCpfCnpj, parseEmail, parseLicence, parsePhone, parsePincode } from './rules';

interface Case {
  field: string;
  input: string;
  ok?: string;
  kind?: string;
  message?: string;
}

function run(field: string, input: string): { ok: string; kind: string | null } | { message: string } {
  const result =
    field === 'phone' ? parsePhone(input)
    : field === 'cpf_cnpj' ? parseCpfCnpj(input)
    : field === 'licence' ? parseLicence(input)
    : field === 'pincode' ? parsePincode(input)
    : field === 'email' ? parseEmail(input)
    : null;
  if (result === null) throw new Error(`unknown field ${field}`);
  if ('error' in result) return { message: result.error };
  const ok = result.ok as string | { value: string; kind: string };
  return typeof ok === 'string' ? { ok, kind: null } : { ok: ok.value, kind: ok.kind };
}

function expected(c: Case) {
  return c.ok !== undefined ? { ok: c.ok, kind: c.kind ?? null } : { message: c.message };
}

export function validationMismatches(cases: Case[]): string[] {
  return cases
    .filter((c) => JSON.stringify(run(c.field, c.input)) !== JSON.stringify(expected(c)))
    .map((c) => `${c.field} ${JSON.stringify(c.input)}: expected ${JSON.stringify(expected(c))} got ${JSON.stringify(run(c.field, c.input))}`);
}

describe('activation field vectors', () => {
  const cases = (vectors as { cases: Case[] }).cases;

  it('covers every field', () => {
    expect(new Set(cases.map((c) => c.field))).toEqual(new Set(['phone', 'cpf_cnpj', 'licence', 'pincode', 'email']));
  });

  it.each(cases.map((c) => [c.field, c.input, c] as const))('%s %j', (_field, _input, c) => {
    expect(run(c.field, c.input)).toEqual(expected(c));
  });

  it('fails on a deliberately wrong copy', () => {
    const mutated = structuredClone(cases);
    mutated[0] = { ...mutated[0], ok: '5511000000000' };
    expect(validationMismatches(mutated)).toHaveLength(1);
    expect(validationMismatches(cases)).toEqual([]);
  });
});
