import { LoadingButton } from '../../../components/flow/LoadingButton';
import { PhoneField } from '../../../components/flow/PhoneField';
import { CloudActor } from '../context';
import { isBusy } from '../selectors';
import { PhoneTip } from './PhoneTip';

/** Example shown in the serial field. */
export const SERIAL_PLACEHOLDER = 'Ex.: PS2401BR00012345';

/** Form 1: phone and serial. Our messages, not the browser's, show in the banner. */
export function DetailsPanel({ onHelp }: { onHelp: () => void }) {
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
        actor.send({ type: 'SUBMIT' });
      }}
    >
      <div className="cloud-field">
        <PhoneField
          id="cloud-phone"
          label="Celular"
          value={phone}
          onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'phone', value })}
          invalid={field === 'phone'}
          describedBy="cloud-phone-tip"
        />
        <PhoneTip id="cloud-phone-tip" />
      </div>
      <div className="flow-field">
        <div className="cloud-field__label-row">
          <label className="flow-field__label" htmlFor="cloud-serial">Número de série</label>
          <button type="button" className="cloud-link" onClick={onHelp}>
            Onde encontro o número de série?
          </button>
        </div>
        <input
          id="cloud-serial"
          name="serial"
          className="flow-input"
          value={serial}
          placeholder={SERIAL_PLACEHOLDER}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          aria-required="true"
          aria-invalid={field === 'serial'}
          onChange={(event) => actor.send({ type: 'FIELD_CHANGED', field: 'serial', value: event.target.value })}
        />
      </div>
      <LoadingButton busy={disabled} busyLabel="Enviando código…" className="cloud-submit">
        Continuar
      </LoadingButton>
    </form>
  );
}
