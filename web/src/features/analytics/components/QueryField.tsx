import type { ReactNode } from 'react';
import type { FieldErrors, QueryField as Field } from '../query';

export const FIELD_IDS: Record<Field, string> = {
  flow: 'an-flow',
  variant: 'an-variant',
  from: 'an-from',
  to: 'an-to',
  window: 'an-window',
  order: 'an-order',
  breakdown: 'an-breakdown',
  count: 'an-count',
};

/** The form's fields in screen order: the first with an error takes the focus. */
export const FIELD_ORDER: Field[] = ['flow', 'variant', 'from', 'to', 'window', 'order', 'breakdown', 'count'];

/** What the field's control spreads: its id, class and the aria of its hint and error. */
export interface ControlProps {
  id: string;
  className: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface Props {
  field: Field;
  label: string;
  errors: FieldErrors;
  /** A line under the control, read with it (aria-describedby). */
  hint?: ReactNode;
  /** Spans the form's two columns. */
  wide?: boolean;
  children: (control: ControlProps) => ReactNode;
}

/** One field of the funnel form: label, the control, its hint and its error beside it. */
export function QueryField({ field, label, errors, hint, wide = false, children }: Props) {
  const id = FIELD_IDS[field];
  const hintId = hint === undefined ? undefined : `${id}-hint`;
  const errorId = errors[field] ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ');
  return (
    <div className={wide ? 'sp-field an-form__wide' : 'sp-field'}>
      <label htmlFor={id} className="sp-label">
        {label}
      </label>
      {children({
        id,
        className: 'sp-input',
        'aria-invalid': errorId ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {hintId && (
        <p id={hintId} className="sp-hint">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="sp-field__error" role="alert">
          {errors[field]}
        </p>
      )}
    </div>
  );
}
