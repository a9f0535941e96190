// The funnel page's query: the form's values, the page URL's search parameters and the API's
// query string are one and the same (`?flow=activation&variant=carrier&from=…&to=…&window=14&
// order=sequential&breakdown=os&count=people`), so a pasted link, back and refresh show the same funnel.

import {
  BREAKDOWNS,
  COUNTS,
  FLOWS,
  ORDERS,
  VARIANTS,
  type Breakdown,
  type Count,
  type Flow,
  type Order,
  type Variant,
} from './api';

/** The form's values as typed: dates and the window stay strings until they are checked. */
export interface FunnelQuery {
  flow: Flow;
  /** '' = every variant (only the steps they share). Activation only. */
  variant: Variant | '';
  from: string;
  to: string;
  window: string;
  order: Order;
  /** '' = no breakdown. */
  breakdown: Breakdown | '';
  /** Attempts (the default, left out of the URL) or unique people. */
  count: Count;
}

export type QueryField = 'flow' | 'variant' | 'from' | 'to' | 'window' | 'order' | 'breakdown' | 'count';
export type FieldErrors = Partial<Record<QueryField, string>>;

export const DEFAULT_WINDOW = '14';
export const DEFAULT_DAYS = 30;

const SAO_PAULO_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** The São Paulo calendar day of `now`, as YYYY-MM-DD. */
export function saoPauloDay(now: Date): string {
  return SAO_PAULO_DAY.format(now);
}

/** `2026-11-23` plus `days` (may be negative), as YYYY-MM-DD. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** A real calendar day written YYYY-MM-DD (what <input type="date"> gives). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const [y, m, d] = value.split('-').map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Activation, every variant, the last 30 days (today included, São Paulo time), 14-day window. */
export function defaultQuery(now: Date = new Date()): FunnelQuery {
  const to = saoPauloDay(now);
  return {
    flow: 'activation',
    variant: '',
    from: addDays(to, -(DEFAULT_DAYS - 1)),
    to,
    window: DEFAULT_WINDOW,
    order: 'sequential',
    breakdown: '',
    count: 'attempts',
  };
}

const oneOf = <T extends string>(options: readonly T[], value: string | null): T | null =>
  value !== null && (options as readonly string[]).includes(value) ? (value as T) : null;

/**
 * The query a URL asks for; what it leaves out (or names wrongly, for the choices) is the default.
 * Dates and the window are kept as written, so a bad one is shown beside its field.
 */
export function queryFromParams(params: URLSearchParams, now: Date = new Date()): FunnelQuery {
  const defaults = defaultQuery(now);
  const flow = oneOf(FLOWS, params.get('flow')) ?? defaults.flow;
  return {
    flow,
    variant: flow === 'activation' ? (oneOf(VARIANTS, params.get('variant')) ?? '') : '',
    from: params.get('from') ?? defaults.from,
    to: params.get('to') ?? defaults.to,
    window: params.get('window') ?? defaults.window,
    order: oneOf(ORDERS, params.get('order')) ?? defaults.order,
    breakdown: oneOf(BREAKDOWNS, params.get('breakdown')) ?? '',
    count: oneOf(COUNTS, params.get('count')) ?? defaults.count,
  };
}

/** The URL's and the API's search parameters, always in this order and always complete. */
export function paramsOf(query: FunnelQuery): URLSearchParams {
  const params = new URLSearchParams();
  params.set('flow', query.flow);
  if (query.flow === 'activation' && query.variant) params.set('variant', query.variant);
  params.set('from', query.from);
  params.set('to', query.to);
  params.set('window', query.window.trim());
  params.set('order', query.order);
  if (query.breakdown) params.set('breakdown', query.breakdown);
  if (query.count !== 'attempts') params.set('count', query.count);
  return params;
}

/** The checks the server makes too, done first so a slip is shown beside its field at once. */
export function validate(query: FunnelQuery): FieldErrors {
  const errors: FieldErrors = {};
  if (!isDay(query.from)) errors.from = 'Informe a data inicial completa (dia, mês e ano).';
  if (!isDay(query.to)) errors.to = 'Informe a data final completa (dia, mês e ano).';
  else if (!errors.from && query.to < query.from)
    errors.to = 'A data final precisa ser igual ou posterior à data inicial.';
  const window = query.window.trim();
  if (!/^\d+$/.test(window) || Number(window) < 1)
    errors.window = 'A janela precisa ser um número inteiro de dias, a partir de 1.';
  return errors;
}
