// What the console writes and reads: dates.ts, labels.ts, masking.ts, search.ts, trail.ts (format.ts
// before it was split by job).

import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration } from './dates';
import { outcomeLabel } from './labels';
import { fieldsOf } from './masking';
import { normalizePhone, parseQuery } from './search';
import { trailEntryOf } from './trail';

describe('normalizePhone', () => {
  it.each([
    ['(11) 91000-0001', '11910000001'],
    ['11910000001', '11910000001'],
    ['+55 11 91000-0001', '11910000001'],
    ['55 11 91000-0001', '11910000001'],
    ['011 91000-0001', '11910000001'],
    ['(21) 3333-4444', '2133334444'],
  ])('%s → %s', (typed, national) => expect(normalizePhone(typed)).toBe(national));

  it.each(['1234', '', '(00) 91000-0001', '+55 11 91000-00011'])('refuses %j', (typed) =>
    expect(normalizePhone(typed)).toBeNull(),
  );
});

describe('parseQuery', () => {
  it('keeps a CNPJ with letters, upper-cased, without punctuation', () => {
    expect(parseQuery('document', '12.abc.345/01de-35')).toEqual({ ok: true, value: '12ABC34501DE35' });
  });
  it('refuses an empty box', () => {
    expect(parseQuery('serial', '  ').ok).toBe(false);
  });
});

describe('formats', () => {
  it('shows São Paulo time in pt-BR', () => {
    expect(formatDateTime('2025-03-14T13:22:05Z')).toBe('14/03/2025, 10:22:05');
    expect(formatDateTime('2025-01-01T02:00:00Z')).toBe('31/12/2024, 23:00:00');
  });
  it.each([
    [400, 'menos de 1 s'],
    [45_000, '45 s'],
    [192_000, '3 min 12 s'],
    [120_000, '2 min'],
    [3_900_000, '1 h 5 min'],
  ])('%d ms → %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
  it('words every outcome', () => {
    expect(outcomeLabel({ kind: 'abandoned', step: 'send_code', minutes: 12 })).toBe('Abandonada em “Enviar o código por SMS” após 12 min');
    expect(outcomeLabel({ kind: 'gave_up' })).toBe('Desistiu após tentativas');
    expect(outcomeLabel({ kind: 'gave_up', step: 'authorize' })).toBe('Desistiu após tentativas em “Autorizar a ativação”');
    expect(outcomeLabel({ kind: 'abandoned', step: 'a_step_with_no_label' })).toBe('Abandonada em “a_step_with_no_label”');
    expect(outcomeLabel({ kind: 'completed' })).toBe('Concluída');
  });
});

describe('fieldsOf and trailEntryOf read the open shapes leniently', () => {
  it('takes an object or a list', () => {
    expect(fieldsOf({ phone: '(11) *****-0001' })).toEqual([
      { name: 'phone', label: 'Telefone', masked: '(11) *****-0001', erased: false },
    ]);
    expect(fieldsOf([{ name: 'email', masked: 'dado apagado (LGPD)' }])[0]).toMatchObject({ label: 'E-mail', erased: true });
  });
  it('words a reveal with its field and reason', () => {
    expect(
      trailEntryOf({ at: '2025-03-14T13:22:05Z', email: 'bia@exa.com.br', action: 'revealed', field: 'phone', reason: 'x' }),
    ).toEqual({ at: '2025-03-14T13:22:05Z', who: 'bia@exa.com.br', what: 'revelou Telefone', reason: 'x', version: null });
  });
  it("words support's actions with the event they appended", () => {
    expect(trailEntryOf({ at: null, email: 'bia@exa.com.br', action: 'cancelled', reason: 'Cliente pediu', version: 7 })).toEqual({
      at: null,
      who: 'bia@exa.com.br',
      what: 'encerrou a tentativa',
      reason: 'Cliente pediu',
      version: 7,
    });
    expect(trailEntryOf({ action: 'retried' }).what).toBe('pediu nova tentativa da etapa agora');
    expect(trailEntryOf({ action: 'noted' }).what).toBe('escreveu uma nota');
  });
});
