// What the console shows for the API's values: São Paulo times in pt-BR, durations, labels of
// flows, variants, actors, outcomes and fields, and the look-up box's parsing.

import type { Outcome, OutcomeKind, SearchKey } from './api';
import { stepLabel } from './labels';

const DATE_TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** `2025-03-14T13:22:05Z` → `14/03/2025, 10:22:05` (São Paulo); the input when it is no date. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : DATE_TIME.format(date);
}

export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : TIME.format(date);
}

/** 850 → "menos de 1 s", 45 000 → "45 s", 192 000 → "3 min 12 s", 3 900 000 → "1 h 5 min". */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return 'menos de 1 s';
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  return `${Math.floor(hours / 24)} dias`;
}

const ACTOR_LABELS: Record<string, string> = {
  visitor: 'visitante',
  runner: 'executor',
  staff: 'equipe',
};

export const actorLabel = (actor: string) => ACTOR_LABELS[actor] ?? actor;

export const OUTCOME_OPTIONS: { value: OutcomeKind; label: string }[] = [
  { value: 'completed', label: 'Concluída' },
  { value: 'refused', label: 'Recusada' },
  { value: 'in_flight', label: 'Em andamento' },
  { value: 'abandoned', label: 'Abandonada' },
  { value: 'gave_up', label: 'Desistiu após tentativas' },
];

/**
 * The badge's text: "Abandonada em “Enviar o código por SMS” após 12 min",
 * "Desistiu após tentativas em “Autorizar a ativação”".
 */
export function outcomeLabel(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'completed':
      return 'Concluída';
    case 'refused':
      return 'Recusada';
    case 'in_flight':
      return 'Em andamento';
    case 'abandoned': {
      const at = outcome.step ? ` em “${stepLabel(outcome.step)}”` : '';
      const after = typeof outcome.minutes === 'number' ? ` após ${outcome.minutes} min` : '';
      return `Abandonada${at}${after}`;
    }
    case 'gave_up':
      return outcome.step ? `Desistiu após tentativas em “${stepLabel(outcome.step)}”` : 'Desistiu após tentativas';
    default:
      return String((outcome as { kind: unknown }).kind);
  }
}

/** The look-up box's kinds, in the selector's order. */
export const SEARCH_KINDS: { key: SearchKey; label: string; placeholder: string }[] = [
  { key: 'phone', label: 'Telefone', placeholder: '(11) 91000-0001' },
  { key: 'document', label: 'CPF/CNPJ', placeholder: '529.982.247-25' },
  { key: 'email', label: 'E-mail', placeholder: 'cliente@exemplo.com.br' },
  { key: 'serial', label: 'Serial/licença', placeholder: 'EXA-0000-0000' },
  { key: 'id', label: 'ID da tentativa', placeholder: 'activation-…' },
];

export type ParsedQuery = { ok: true; value: string } | { ok: false; message: string };

/**
 * A phone in any common form → its national digits (DDD + number): `(11) 91000-0001`,
 * `11910000001`, `+55 11 91000-0001`, `0 11 91000-0001` and `011910000001` all give
 * `11910000001`.
 */
export function normalizePhone(typed: string): string | null {
  let digits = typed.replace(/\D/g, '');
  if (digits.length >= 12 && digits.startsWith('55')) digits = digits.slice(2);
  else if (digits.length >= 11 && digits.startsWith('0')) digits = digits.replace(/^0+/, '');
  if (digits.length !== 10 && digits.length !== 11) return null;
  if (digits.startsWith('0')) return null;
  return digits;
}

export function parseQuery(kind: SearchKey, typed: string): ParsedQuery {
  const value = typed.trim();
  if (!value) return { ok: false, message: 'Digite o que deseja buscar.' };
  switch (kind) {
    case 'phone': {
      const phone = normalizePhone(value);
      return phone
        ? { ok: true, value: phone }
        : { ok: false, message: 'Telefone inválido. Digite o DDD e o número, por exemplo (11) 91000-0001.' };
    }
    case 'document': {
      const document = value.replace(/[.\-/\s]/g, '').toUpperCase();
      return /^[0-9A-Z]{11}$|^[0-9A-Z]{14}$/.test(document)
        ? { ok: true, value: document }
        : { ok: false, message: 'CPF ou CNPJ inválido. Digite os 11 ou 14 caracteres.' };
    }
    case 'email':
      return /^[^\s@]+@[^\s@]+$/.test(value)
        ? { ok: true, value: value.toLowerCase() }
        : { ok: false, message: 'E-mail inválido. Confira o endereço digitado.' };
    case 'serial':
    case 'id':
      return { ok: true, value };
  }
}

const FIELD_LABELS: Record<string, string> = {
  phone: 'Telefone',
  msisdn: 'Telefone',
  document: 'CPF/CNPJ',
  cpf_cnpj: 'CPF/CNPJ',
  cpf: 'CPF',
  cnpj: 'CNPJ',
  email: 'E-mail',
  serial: 'Serial',
  licence: 'Licença',
  license: 'Licença',
  name: 'Nome',
};

export const fieldLabel = (name: string) => FIELD_LABELS[name] ?? name;

export interface MaskedField {
  name: string;
  label: string;
  masked: string;
  erased: boolean;
}

export const ERASED_TEXT = 'dado apagado (LGPD)';

/**
 * The detail's `fields`, whichever of the plain shapes the server sends: an object of name →
 * masked text, or a list of `{name | field, label?, masked | value}`.
 */
export function fieldsOf(fields: unknown): MaskedField[] {
  const out: MaskedField[] = [];
  const push = (name: string, label: unknown, masked: unknown) => {
    const text = masked === null || masked === undefined ? '—' : String(masked);
    out.push({
      name,
      label: typeof label === 'string' && label ? label : fieldLabel(name),
      masked: text,
      erased: text.toLowerCase().includes('apagado'),
    });
  };
  if (Array.isArray(fields)) {
    for (const item of fields) {
      if (!item || typeof item !== 'object') continue;
      const record = item as Record<string, unknown>;
      const name = record.name ?? record.field;
      if (typeof name !== 'string') continue;
      push(name, record.label, record.masked ?? record.value ?? record.display);
    }
  } else if (fields && typeof fields === 'object') {
    for (const [name, value] of Object.entries(fields as Record<string, unknown>)) {
      if (value && typeof value === 'object') {
        const record = value as Record<string, unknown>;
        push(name, record.label, record.masked ?? record.value ?? record.display);
      } else {
        push(name, null, value);
      }
    }
  }
  return out;
}

export interface TrailEntry {
  at: string | null;
  who: string;
  what: string;
  reason: string | null;
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
  };
}
