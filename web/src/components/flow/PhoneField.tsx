import './flow.css';
import { IMaskInput } from 'react-imask';
import { FieldHint, describedBy } from './FieldHint';
import { pastedPhone } from '../../lib/phone';

/**
 * One display mask for every flow's phone: (DD) NNNNN-NNNN, 15 characters (spec section 5). The
 * mask holds that length, not a `maxlength`, which cut a pasted `+55 11 91000-0001` before the
 * mask could drop the country code (issue 29).
 */
export const PHONE_MASK = '(00) 00000-0000';
/** The spec's placeholder (section 5, cloud activation), now the same in the three flows. */
export const PHONE_PLACEHOLDER = '(xx) xxxxx-xxxx';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  invalid?: boolean;
  /** One line under the field (why it is asked, or how to type it). */
  hint?: string;
  /** Further ids for aria-describedby (an error banner, a tip). */
  describedBy?: string;
  disabled?: boolean;
}

/**
 * The phone field of the three flows: one mask (react-imask), one placeholder, the national
 * number's autocomplete and a phone keypad on touch screens.
 */
export function PhoneField({ id, label, value, onChange, invalid = false, hint, describedBy: extra, disabled }: Props) {
  return (
    <div className="flow-field">
      <label className="flow-field__label" htmlFor={id}>
        {label}
      </label>
      <IMaskInput
        id={id}
        name="phone"
        mask={PHONE_MASK}
        // A pasted `+55 11 91000-0001` reaches the mask as its national digits, not as `(55) 11910-0000`.
        prepare={(text: string) => pastedPhone(text)}
        value={value}
        onAccept={(next: string) => onChange(next)}
        placeholder={PHONE_PLACEHOLDER}
        inputMode="tel"
        autoComplete="tel-national"
        disabled={disabled}
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint, extra)}
        className="flow-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}
