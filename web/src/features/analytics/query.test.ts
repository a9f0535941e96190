import { describe, expect, it } from 'vitest';
import { CARRIER_QUERY } from './fixtures';
import { addDays, defaultQuery, isDay, paramsOf, queryFromParams, saoPauloDay, validate } from './query';

describe('the funnel query', () => {
  it('defaults to the last 30 days in São Paulo time', () => {
    // 02:00 UTC on the 24th is still 23:00 on the 23rd in São Paulo (UTC−3).
    const now = new Date('2026-11-24T02:00:00Z');
    expect(saoPauloDay(now)).toBe('2026-11-23');
    expect(defaultQuery(now)).toEqual({
      flow: 'activation',
      variant: '',
      from: '2026-10-25',
      to: '2026-11-23',
      window: '14',
      order: 'sequential',
      breakdown: '',
      count: 'attempts',
    });
    expect(paramsOf(defaultQuery(now)).toString()).toBe(
      'flow=activation&from=2026-10-25&to=2026-11-23&window=14&order=sequential',
    );
  });

  it('reads the URL back into the same query string', () => {
    const query = queryFromParams(new URLSearchParams(CARRIER_QUERY));
    expect(query).toEqual({
      flow: 'activation',
      variant: 'carrier',
      from: '2026-11-01',
      to: '2026-11-23',
      window: '14',
      order: 'sequential',
      breakdown: 'os',
      count: 'attempts',
    });
    expect(paramsOf(query).toString()).toBe(CARRIER_QUERY);
  });

  it('asks for people only when they are chosen, and attempts are the default', () => {
    const people = queryFromParams(new URLSearchParams(`${CARRIER_QUERY}&count=people`));
    expect(people.count).toBe('people');
    expect(paramsOf(people).toString()).toBe(`${CARRIER_QUERY}&count=people`);
    expect(queryFromParams(new URLSearchParams(`${CARRIER_QUERY}&count=todos`)).count).toBe('attempts');
  });

  it('drops the variant outside activation and unknown choices, but keeps typed dates and window', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const query = queryFromParams(
      new URLSearchParams('flow=download&variant=carrier&order=x&breakdown=cpf&window=abc&from=2026-13-01'),
      now,
    );
    expect(query).toMatchObject({ flow: 'download', variant: '', order: 'sequential', breakdown: '', window: 'abc' });
    expect(paramsOf(query).toString()).toBe('flow=download&from=2026-13-01&to=2026-11-24&window=abc&order=sequential');
  });

  it('checks the dates and the window like the server does', () => {
    const base = defaultQuery(new Date('2026-11-24T12:00:00Z'));
    expect(validate(base)).toEqual({});
    expect(validate({ ...base, from: '2026-11-10', to: '2026-11-09' })).toEqual({
      to: 'A data final precisa ser igual ou posterior à data inicial.',
    });
    expect(validate({ ...base, from: '2026-11-10', to: '2026-11-10' })).toEqual({});
    expect(validate({ ...base, window: '0' }).window).toBe('A janela precisa ser um número inteiro de dias, a partir de 1.');
    expect(validate({ ...base, window: '2.5' }).window).toBeDefined();
    expect(validate({ ...base, window: '' }).window).toBeDefined();
    expect(validate({ ...base, window: ' 7 ' })).toEqual({});
    expect(validate({ ...base, from: '' }).from).toBe('Informe a data inicial completa (dia, mês e ano).');
    expect(validate({ ...base, to: '2026-02-30' }).to).toBe('Informe a data final completa (dia, mês e ano).');
  });

  it('knows calendar days', () => {
    expect(isDay('2024-02-29')).toBe(true);
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('26-11-01')).toBe(false);
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});
