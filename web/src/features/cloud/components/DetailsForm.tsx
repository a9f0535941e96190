import { IMaskInput } from 'react-imask';
import { CloudActor } from '../context';
import { PHONE_MASK, PHONE_PLACEHOLDER, SERIAL_MAX_LENGTH } from '../rules';
import { isBusy } from '../selectors';
import { PhoneTip } from './PhoneTip';

/** Example shown in the serial field. */
export const SERIAL_PLACEHOLDER = 'Ex.: PS2401BR00012345';

/** Form 1: phone and serial. Our messages, not the browser's, show in the banner. */
export function DetailsForm({ onHelp }: { onHelp: () => void }) {
  const actor = CloudActor.useActorRef();
  const phone = CloudActor.useSelector((s) => s.context.phone);
  const serial = CloudActor.useSelector((s) => s.context.serial);
  const field = CloudActor.useSelector((s) => s.context.field);
  const disabled = CloudActor.useSelector(isBusy);
  return (
    <form
      className="cloud-form"
      noValidate
      aria-label="Dados para ativação"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SUBMIT_DETAILS' });
      }}
    >
      <div className="cloud-field">
        <label htmlFor="cloud-phone">Celular</label>
        <IMaskInput
          id="cloud-phone"
          name="phone"
          mask={PHONE_MASK}
          value={phone}
          onAccept={(value: string) => actor.send({ type: 'PHONE_CHANGED', value })}
          placeholder={PHONE_PLACEHOLDER}
          inputMode="tel"
          autoComplete="tel-national"
          aria-required="true"
          aria-invalid={field === 'phone'}
          aria-describedby="cloud-phone-tip"
          className="cloud-input"
        />
        <PhoneTip id="cloud-phone-tip" />
      </div>
      <div className="cloud-field">
        <div className="cloud-field__label-row">
          <label htmlFor="cloud-serial">Número de série</label>
          <button type="button" className="cloud-link" onClick={onHelp}>
            Onde encontro o número de série?
          </button>
        </div>
        <input
          id="cloud-serial"
          name="serial"
          className="cloud-input"
          value={serial}
          maxLength={SERIAL_MAX_LENGTH}
          placeholder={SERIAL_PLACEHOLDER}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-required="true"
          aria-invalid={field === 'serial'}
          onChange={(event) => actor.send({ type: 'SERIAL_CHANGED', value: event.target.value })}
        />
      </div>
      <button type="submit" className="button button--primary cloud-submit" disabled={disabled}>
        Continuar
      </button>
    </form>
  );
}
