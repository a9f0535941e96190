import { ActivationActor } from '../context';
import { DEFAULT_BUTTON, EMAIL_HINT, PHONE_HINT } from '../messages';
import { FieldHint, PhoneField } from './Fields';
import { PanelForm } from './PanelForm';

/** Spec panel 2: phone and e-mail, button 'Validar' (telecom partner). */
export function EmailPanel({ heading }: { heading: string }) {
  const actor = ActivationActor.useActorRef();
  const phone = ActivationActor.useSelector((s) => s.context.phone);
  const email = ActivationActor.useSelector((s) => s.context.email);
  const field = ActivationActor.useSelector((s) => s.context.field);
  return (
    <PanelForm heading={heading} onSubmit={() => actor.send({ type: 'SUBMIT' })}>
      <PhoneField
        id="activation-phone"
        label="Número do celular"
        hint={PHONE_HINT}
        value={phone}
        invalid={field === 'phone'}
        onChange={(value) => actor.send({ type: 'PHONE_CHANGED', value })}
      />
      <div className="activation-field">
        <label htmlFor="activation-email">E-mail</label>
        <input
          id="activation-email"
          name="email"
          type="email"
          value={email}
          onChange={(event) => actor.send({ type: 'EMAIL_CHANGED', value: event.target.value })}
          autoComplete="email"
          aria-required="true"
          aria-invalid={field === 'email'}
          aria-describedby="activation-email-hint"
          className="activation-input"
        />
        <FieldHint id="activation-email" hint={EMAIL_HINT} />
      </div>
      <button type="submit" className="button button--primary activation-submit">
        {DEFAULT_BUTTON}
      </button>
    </PanelForm>
  );
}
