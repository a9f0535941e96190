import type { Field } from '../validation';
import { DEFAULT_BUTTON } from '../messages';
import { PhoneField } from './Fields';
import { PanelForm } from './PanelForm';

interface Props {
  heading: string;
  phone: string;
  email: string;
  field: Field | null;
  onPhone: (value: string) => void;
  onEmail: (value: string) => void;
  onSubmit: () => void;
}

/** Spec panel 2: phone and e-mail, button 'Validar' (telecom partner). */
export function EmailPanel(props: Props) {
  return (
    <PanelForm heading={props.heading} onSubmit={props.onSubmit}>
      <PhoneField id="activation-phone" label="Número do celular" value={props.phone} invalid={props.field === 'phone'} onChange={props.onPhone} />
      <div className="activation-field">
        <label htmlFor="activation-email">E-mail</label>
        <input
          id="activation-email"
          name="email"
          type="email"
          value={props.email}
          onChange={(event) => props.onEmail(event.target.value)}
          autoComplete="email"
          aria-required="true"
          aria-invalid={props.field === 'email'}
          className="activation-input"
        />
      </div>
      <button type="submit" className="button button--primary activation-submit">
        {DEFAULT_BUTTON}
      </button>
    </PanelForm>
  );
}
