import { FieldHint } from '../../../components/flow/FieldHint';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { PhoneField } from '../../../components/flow/PhoneField';
import { ActivationActor } from '../context';
import { busyLabelOf, isBusy } from '../selectors';
import { DEFAULT_BUTTON, EMAIL_HINT, PHONE_HINT } from '../texts';
import { PanelForm } from './PanelForm';

/** Spec panel 2: phone and e-mail, button 'Validar' (telecom partner). */
export function EmailPanel({ heading }: { heading: string }) {
  const actor = ActivationActor.useActorRef();
  const phone = ActivationActor.useSelector((s) => s.context.phone);
  const email = ActivationActor.useSelector((s) => s.context.email);
  const field = ActivationActor.useSelector((s) => s.context.field);
  const busy = ActivationActor.useSelector(isBusy);
  const busyLabel = ActivationActor.useSelector(busyLabelOf);
  return (
    <PanelForm heading={heading} onSubmit={() => actor.send({ type: 'SUBMIT' })}>
      <PhoneField
        id="activation-phone"
        label="Número do celular"
        hint={PHONE_HINT}
        value={phone}
        invalid={field === 'phone'}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'phone', value })}
      />
      <div className="flow-field">
        <label className="flow-field__label" htmlFor="activation-email">E-mail</label>
        <input
          id="activation-email"
          name="email"
          type="email"
          value={email}
          onChange={(event) => actor.send({ type: 'FIELD_CHANGED', field: 'email', value: event.target.value })}
          autoComplete="email"
          aria-required="true"
          aria-invalid={field === 'email'}
          aria-describedby="activation-email-hint"
          className="flow-input"
        />
        <FieldHint id="activation-email" hint={EMAIL_HINT} />
      </div>
      <LoadingButton busy={busy} busyLabel={busyLabel} className="activation-submit">
        {DEFAULT_BUTTON}
      </LoadingButton>
    </PanelForm>
  );
}
