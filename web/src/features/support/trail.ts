// The staff trail of an attempt (who opened, revealed, erased, retried, cancelled or noted what),
// read leniently.

import { fieldLabel } from './labels';

export interface TrailEntry {
  at: string | null;
  who: string;
  what: string;
  reason: string | null;
  /** The attempt's event the action appended (its permalink), if any. */
  version: number | null;
}

const TRAIL_ACTIONS: Record<string, string> = {
  opened: 'abriu a tentativa',
  attempt_opened: 'abriu a tentativa',
  'staff.attempt_opened': 'abriu a tentativa',
  revealed: 'revelou',
  field_revealed: 'revelou',
  'staff.field_revealed': 'revelou',
  erased: 'apagou os dados da pessoa',
  person_erased: 'apagou os dados da pessoa',
  'staff.person_erased': 'apagou os dados da pessoa',
  retried: 'pediu nova tentativa da etapa agora',
  cancelled: 'encerrou a tentativa',
  noted: 'escreveu uma nota',
};

/** One `staff_trail` entry, read leniently: `{at, email | staff | by, action | type, field?, reason?}`. */
export function trailEntryOf(entry: unknown): TrailEntry {
  const record = (entry && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value ? value : null);
  const action = text(record.action) ?? text(record.type) ?? text(record.kind) ?? '';
  const field = text(record.field);
  let what = TRAIL_ACTIONS[action] ?? action;
  if (what === 'revelou' || (field && !TRAIL_ACTIONS[action])) {
    what = field ? `${what} ${fieldLabel(field)}`.trim() : what;
  }
  return {
    at: text(record.at),
    who: text(record.email) ?? text(record.staff) ?? text(record.by) ?? 'equipe',
    what,
    reason: text(record.reason),
    version: typeof record.version === 'number' ? record.version : null,
  };
}
