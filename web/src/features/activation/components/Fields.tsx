import { IMaskInput } from 'react-imask';
import { FieldHint, describedBy } from '../../../components/flow/FieldHint';
import type { Field } from '../types';
import { CPF_CNPJ_MAX } from '../rules';

export { PhoneField } from '../../../components/flow/PhoneField';
export { FieldHint } from '../../../components/flow/FieldHint';

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

export function CpfCnpjField({ id, label, value, invalid, onChange, hint }: TextFieldProps) {
  return (
    <div className="flow-field">
      <label className="flow-field__label" htmlFor={id}>
        {label}
      </label>
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
        className="flow-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function LicenceField({ id, label, value, invalid, onChange, disabled = false, hint }: TextFieldProps) {
  return (
    <div className="flow-field">
      <label className="flow-field__label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        name="licence"
        type="text"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        disabled={disabled}
        autoComplete="off"
        aria-required="true"
        aria-invalid={invalid}
        aria-describedby={describedBy(id, hint)}
        className="flow-input"
      />
      <FieldHint id={id} hint={hint} />
    </div>
  );
}

export function isInvalid(field: Field | null, name: Field): boolean {
  return field === name;
}
