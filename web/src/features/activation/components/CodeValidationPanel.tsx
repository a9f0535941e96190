import { ChangeNumber } from '../../../components/flow/ChangeNumber';
import { CodesExhausted } from '../../../components/flow/CodesExhausted';
import { codesExhausted } from '../../../lib/attempts/regions';
import { Checkbox } from '../../../components/flow/Checkbox';
import { CodeField } from '../../../components/flow/CodeField';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { TERMS_PATHS } from '../../../content/company';
import { ActivationActor } from '../context';
import { resendIn } from '../machine';
import { ACTIVATE_BUTTON, RESEND_LINK, resendingIn } from '../texts';
import { PINCODE_LENGTH } from '../rules';
import { busyLabelOf, isBusy } from '../selectors';
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
  const busyLabel = ActivationActor.useSelector(busyLabelOf);
  const activating = ActivationActor.useSelector((s) => isBusy(s) && s.context.outgoing?.type === 'submit_code');
  const invalid = ActivationActor.useSelector((s) => s.context.field === 'pincode');
  const exhausted = ActivationActor.useSelector((s) => codesExhausted(s.context));
  const counting = secondsLeft > 0;
  if (exhausted && onChangeNumber) {
    return (
      <section className="activation-panel" aria-labelledby="activation-heading">
        <h1 id="activation-heading" className="activation-heading">
          Digite o código que enviamos por SMS
        </h1>
        <CodesExhausted onStartAgain={onChangeNumber} />
      </section>
    );
  }
  const ready = new RegExp(`^\\d{${PINCODE_LENGTH}}$`).test(pincode) && terms && !counting && !busy;
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
      <CodeField
        id="activation-pincode"
        label="Código recebido por SMS"
        value={pincode}
        invalid={invalid}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'pincode', value })}
      />
      <p className="activation-resend" aria-live="polite">
        {counting ? (
          <span>{resendingIn(secondsLeft)}</span>
        ) : (
          <button type="button" className="activation-link" onClick={() => actor.send({ type: 'RESEND' })} disabled={busy}>
            {RESEND_LINK}
          </button>
        )}
      </p>
      <Checkbox
        id="activation-terms"
        checked={terms}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'terms', value })}
        required
      >
        Li e concordo com os{' '}
        <a href={TERMS_PATHS.terms} target="_blank" rel="noopener noreferrer">
          Termos de uso e Privacidade
        </a>
      </Checkbox>
      <LoadingButton busy={activating} busyLabel={busyLabel} disabled={!ready} className="activation-submit">
        {ACTIVATE_BUTTON}
      </LoadingButton>
    </PanelForm>
  );
}
