import { ChangeNumber } from '../../../components/flow/ChangeNumber';
import { TERMS_PATHS } from '../../../content/company';
import { ActivationActor } from '../context';
import { resendIn } from '../machine';
import { ACTIVATE_BUTTON, RESEND_LINK, resendingIn } from '../messages';
import { PINCODE_LENGTH } from '../validation';
import { isBusy } from '../view';
import { PanelForm } from './PanelForm';

/**
 * Spec panel 3: the phone, the 6-digit code, the resend link (60 s countdown after a resend),
 * the required terms checkbox and 'Ativar', disabled during the countdown.
 */
export function CodeValidationPanel({ onChangeNumber }: { onChangeNumber?: () => void }) {
  const actor = ActivationActor.useActorRef();
  const phone = ActivationActor.useSelector((s) => s.context.phone || s.context.phoneDisplay || '');
  const pincode = ActivationActor.useSelector((s) => s.context.pincode);
  const terms = ActivationActor.useSelector((s) => s.context.terms);
  const secondsLeft = ActivationActor.useSelector((s) => resendIn(s.context));
  const busy = ActivationActor.useSelector(isBusy);
  const invalid = ActivationActor.useSelector((s) => s.context.field === 'pincode');
  const counting = secondsLeft > 0;
  const ready = /^\d{6}$/.test(pincode) && terms && !counting && !busy;
  return (
    <PanelForm
      heading="Digite o código que enviamos por SMS"
      onSubmit={() => {
        if (ready) actor.send({ type: 'SUBMIT' });
      }}
    >
      <p className="activation-phone">
        Enviamos um código de 6 dígitos para o celular <strong data-testid="activation-phone-shown">{phone}</strong>.
      </p>
      {onChangeNumber && <ChangeNumber onClick={onChangeNumber} />}
      <div className="activation-field">
        <label htmlFor="activation-pincode">Código recebido por SMS</label>
        <input
          id="activation-pincode"
          name="pincode"
          type="text"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={PINCODE_LENGTH}
          value={pincode}
          onChange={(event) =>
            actor.send({ type: 'PINCODE_CHANGED', value: event.target.value.replace(/\D/g, '').slice(0, PINCODE_LENGTH) })
          }
          aria-required="true"
          aria-invalid={invalid}
          className="activation-input activation-input--code"
        />
      </div>
      <p className="activation-resend" aria-live="polite">
        {counting ? (
          <span>{resendingIn(secondsLeft)}</span>
        ) : (
          <button type="button" className="activation-link" onClick={() => actor.send({ type: 'RESEND' })} disabled={busy}>
            {RESEND_LINK}
          </button>
        )}
      </p>
      <div className="activation-terms">
        <input
          id="activation-terms"
          type="checkbox"
          checked={terms}
          onChange={(event) => actor.send({ type: 'TERMS_CHANGED', value: event.target.checked })}
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
