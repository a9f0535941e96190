// The look-up box: its kinds, and the typed text turned into what the API searches for.

import type { SearchKey } from './api';

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
