import { TERMS_PATHS } from '../../../content/company';
import { ACTIVATE_BUTTON, RESEND_LINK, resendingIn } from '../messages';
import { PINCODE_LENGTH } from '../validation';
import { PanelForm } from './PanelForm';

interface Props {
  phone: string;
  pincode: string;
  terms: boolean;
  resendIn: number;
  busy: boolean;
  invalid: boolean;
  onPincode: (value: string) => void;
  onTerms: (value: boolean) => void;
  onResend: () => void;
  onSubmit: () => void;
}

/**
 * Spec panel 3: the phone, the 6-digit code, the resend link (60 s countdown after a resend),
 * the required terms checkbox and 'Ativar', disabled during the countdown.
 */
export function CodeValidationPanel(props: Props) {
  const counting = props.resendIn > 0;
  const ready = /^\d{6}$/.test(props.pincode) && props.terms && !counting && !props.busy;
  return (
    <PanelForm
      heading="Digite o código que enviamos por SMS"
      onSubmit={() => {
        if (ready) props.onSubmit();
      }}
    >
      <p className="activation-phone">
        Enviamos um código de 6 dígitos para o celular <strong data-testid="activation-phone-shown">{props.phone}</strong>.
      </p>
      <div className="activation-field">
        <label htmlFor="activation-pincode">Código recebido por SMS</label>
        <input
          id="activation-pincode"
          name="pincode"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={PINCODE_LENGTH}
          value={props.pincode}
          onChange={(event) => props.onPincode(event.target.value.replace(/\D/g, '').slice(0, PINCODE_LENGTH))}
          aria-required="true"
          aria-invalid={props.invalid}
          className="activation-input activation-input--code"
        />
      </div>
      <p className="activation-resend" aria-live="polite">
        {counting ? (
          <span>{resendingIn(props.resendIn)}</span>
        ) : (
          <button type="button" className="activation-link" onClick={props.onResend} disabled={props.busy}>
            {RESEND_LINK}
          </button>
        )}
      </p>
      <div className="activation-terms">
        <input
          id="activation-terms"
          type="checkbox"
          checked={props.terms}
          onChange={(event) => props.onTerms(event.target.checked)}
          required
          aria-required="true"
        />
        <label htmlFor="activation-terms">
          Li e concordo com os{' '}
          <a href={TERMS_PATHS.terms} target="_blank" rel="noopener noreferrer">
            Termos de uso e Privacidade
          </a>
        </label>
      </div>
      <button type="submit" className="button button--primary activation-submit" disabled={!ready}>
        {ACTIVATE_BUTTON}
      </button>
    </PanelForm>
  );
}
