// The detail's masked personal data, read leniently from the shapes the server may send.

import { fieldLabel } from './labels';

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
