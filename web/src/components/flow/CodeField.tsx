import './flow.css';
import { FieldHint, describedBy } from './FieldHint';

/** Every flow's SMS code: 6 digits. */
export const SMS_CODE_LENGTH = 6;

interface Props {
  id: string;
  label: string;
  value: string;
  /** Receives digits only, at most six. */
  onChange: (digits: string) => void;
  invalid?: boolean;
  hint?: string;
  describedBy?: string;
  onBlur?: () => void;
  disabled?: boolean;
}

/** The SMS code field of the three flows: digits only, the phone's one-time-code autofill. */
export function CodeField({ id, label, value, onChange, invalid = false, hint, describedBy: extra, onBlur, disabled }: Props) {
  return (
    <div className="flow-field">
      <label className="flow-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name="code"
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={SMS_CODE_LENGTH}
        placeholder="000000"
        value={value}
        onChange={(event) => onChange(event.target.value.replace(/\D/g, '').slice(0, SMS_CODE_LENGTH))}
        onBlur={onBlur}
        disabled={disabled}
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint, extra)}
        className="flow-input flow-input--code"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}
