// What the look-up page searches for, kept in the page's history state, never in its address
// (issue 26): a reload or "back" finds it there, while the browser's history, a proxy's logs
// and a pasted link hold only `/suporte`.

import { FILTER_KEYS, SEARCH_KEYS, type SearchKey } from './api';

export interface LookupQuery {
  kind: SearchKey;
  value: string;
  flow: string;
  outcome: string;
  from: string;
  to: string;
  page: number;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function pageOf(value: unknown): number {
  const page = typeof value === 'number' ? value : Number(value ?? '1');
  return Number.isInteger(page) && page > 0 ? page : 1;
}

/** The query a history entry's state holds, checked (the state survives reloads and versions). */
export function lookupFromState(state: unknown): LookupQuery | null {
  if (typeof state !== 'object' || state === null || !('lookup' in state)) return null;
  const saved = (state as { lookup: unknown }).lookup;
  if (typeof saved !== 'object' || saved === null) return null;
  const fields = saved as Record<string, unknown>;
  const kind = SEARCH_KEYS.find((key) => key === fields.kind);
  const value = text(fields.value);
  if (!kind || !value) return null;
  return {
    kind,
    value,
    flow: text(fields.flow),
    outcome: text(fields.outcome),
    from: text(fields.from),
    to: text(fields.to),
    page: pageOf(fields.page),
  };
}

/** A link written before the search left the address (`/suporte?phone=…`), read once. */
export function lookupFromAddress(params: URLSearchParams): LookupQuery | null {
  const kind = SEARCH_KEYS.find((key) => params.get(key));
  if (!kind) return null;
  return {
    kind,
    value: params.get(kind) ?? '',
    flow: params.get('flow') ?? '',
    outcome: params.get('outcome') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    page: pageOf(params.get('page') ?? '1'),
  };
}

/** What the API's look-up (and the CSV export) take, only the fields that are set. */
export function apiParamsOf(query: LookupQuery): URLSearchParams {
  const params = new URLSearchParams();
  params.set(query.kind, query.value);
  for (const key of FILTER_KEYS) {
    if (key === 'page') {
      if (query.page > 1) params.set('page', String(query.page));
    } else if (query[key]) {
      params.set(key, query[key]);
    }
  }
  return params;
}
