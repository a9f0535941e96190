import { IMaskInput } from 'react-imask';
import type { Field } from '../validation';
import { CPF_CNPJ_MAX, LICENCE_MAX, PHONE_MAX } from '../validation';

/** Spec section 5: display mask (DD) NNNNN-NNNN, at most 15 characters. */
export const PHONE_MASK = '(00) 00000-0000';

/**
 * CPF `000.000.000-00` until the value no longer fits, then CNPJ, whose first 12 characters may
 * be letters (the alphanumeric CNPJ): `##.###.###/####-00`, at most 18 characters.
 */
export const CPF_CNPJ_MASK = [
  { mask: '000.000.000-00' },
  { mask: '##.###.###/####-00', definitions: { '#': /[0-9A-Za-z]/ } },
];

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  invalid: boolean;
  onChange: (value: string) => void;
  disabled?: boolean;
  /** One line under the field on why it is asked. */
  hint?: string;
}

/** The line under a field saying why it is asked, tied to the input by aria-describedby. */
export function FieldHint({ id, hint }: { id: string; hint?: string }) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className="activation-hint">
      {hint}
    </p>
  );
}

const describedBy = (id: string, hint?: string) => (hint ? `${id}-hint` : undefined);

export function PhoneField({ id, label, value, invalid, onChange, hint }: TextFieldProps) {
  return (
    <div className="activation-field">
      <label htmlFor={id}>{label}</label>
      <IMaskInput
        id={id}
        name="phone"
        mask={PHONE_MASK}
        value={value}
        onAccept={(next: string) => onChange(next)}
        placeholder="(xx) xxxxx-xxxx"
        inputMode="tel"
        autoComplete="tel-national"
        maxLength={PHONE_MAX}
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint)}
        className="activation-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function CpfCnpjField({ id, label, value, invalid, onChange, hint }: TextFieldProps) {
  return (
    <div className="activation-field">
      <label htmlFor={id}>{label}</label>
      <IMaskInput
        id={id}
        name="cpf_cnpj"
        mask={CPF_CNPJ_MASK}
        prepareChar={(text: string) => text.toUpperCase()}
        value={value}
        onAccept={(next: string) => onChange(next)}
        placeholder="000.000.000-00"
        maxLength={CPF_CNPJ_MAX}
        autoComplete="off"
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint)}
        className="activation-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function LicenceField({ id, label, value, invalid, onChange, disabled = false, hint }: TextFieldProps) {
  return (
    <div className="activation-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name="licence"
        type="text"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        maxLength={LICENCE_MAX}
        disabled={disabled}
        autoComplete="off"
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint)}
        className="activation-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function isInvalid(field: Field | null, name: Field): boolean {
  return field === name;
}
