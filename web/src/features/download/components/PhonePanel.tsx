import type { FormEvent } from 'react';
import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { PhoneField } from '../../../components/flow/PhoneField';
import { DownloadActor } from '../context';
import { busyLabelOf, isBusy } from '../selectors';
import { PHONE_HINT, TEXTS } from '../texts';
import { checkPhone } from '../rules';
import { useDismissible } from './useDismissible';

/** Step 1: the phone that receives the SMS code. */
export function PhonePanel() {
  const actor = DownloadActor.useActorRef();
  const serverMessage = DownloadActor.useSelector((s) => (s.context.field === 'phone' ? s.context.error : null));
  const busy = DownloadActor.useSelector(isBusy);
  const busyLabel = DownloadActor.useSelector(busyLabelOf);
  // Pressed while the start waits in line: the button waits with the visitor.
  const queued = DownloadActor.useSelector((s) => s.context.phoneQueued);
  const phone = DownloadActor.useSelector((s) => s.context.phone);
  const check = checkPhone(phone);
  const [message, dismiss] = useDismissible(check.message ?? serverMessage, phone);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };

  return (
    <form className="dl-panel" onSubmit={submit} noValidate aria-labelledby="dl-phone-title">
      <h3 id="dl-phone-title" className="dl-panel__title">
        {TEXTS.phoneTitle}
      </h3>
      {message && <ErrorBanner id="dl-phone-error" message={message} onDismiss={dismiss} />}
      <PhoneField
        id="dl-phone"
        label={TEXTS.phoneLabel}
        value={phone}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'phone', value })}
        invalid={(check.message ?? serverMessage) !== null}
        hint={PHONE_HINT}
        describedBy={message ? 'dl-phone-error' : undefined}
      />
      <ul className="dl-notes">
        <li>{TEXTS.phoneNoteCode}</li>
        <li>{TEXTS.phoneNoteFamily}</li>
      </ul>
      <LoadingButton
        busy={busy || queued}
        busyLabel={queued ? TEXTS.waitingTurn : busyLabel}
        disabled={!check.valid}
        className="dl-panel__action"
      >
        {TEXTS.continue}
      </LoadingButton>
    </form>
  );
}
