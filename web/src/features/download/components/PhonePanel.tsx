import { useState, type FormEvent } from 'react';
import { IMaskInput } from 'react-imask';
import { DownloadActor } from '../context';
import { TEXTS } from '../texts';
import { checkPhone, PHONE_HINT, PHONE_MASK } from '../validation';

/** Step 1: the phone that receives the SMS code. */
export function PhonePanel() {
  const actor = DownloadActor.useActorRef();
  const serverMessage = DownloadActor.useSelector((s) =>
    s.context.fieldError?.field === 'phone' ? s.context.fieldError.message : null,
  );
  const [phone, setPhone] = useState('');
  const check = checkPhone(phone);
  const message = check.message ?? serverMessage;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (check.valid) actor.send({ type: 'COMMAND', command: { type: 'submit_phone', phone } });
  };

  return (
    <form className="dl-panel" onSubmit={submit} noValidate aria-labelledby="dl-phone-title">
      <h3 id="dl-phone-title" className="dl-panel__title">
        {TEXTS.phoneTitle}
      </h3>
      <label className="dl-field__label" htmlFor="dl-phone">
        {TEXTS.phoneLabel}
      </label>
      <IMaskInput
        id="dl-phone"
        className={`dl-field__input${message ? ' dl-field__input--error' : ''}`}
        mask={PHONE_MASK}
        value={phone}
        onAccept={(value: string) => {
          setPhone(value);
          actor.send({ type: 'FIELD_EDITED', field: 'phone' });
        }}
        inputMode="numeric"
        autoComplete="tel-national"
        placeholder={TEXTS.phonePlaceholder}
        aria-invalid={message ? true : undefined}
        aria-describedby={message ? 'dl-phone-hint dl-phone-error' : 'dl-phone-hint'}
      />
      <p id="dl-phone-hint" className="dl-field__hint">
        {PHONE_HINT}
      </p>
      {message && (
        <p id="dl-phone-error" className="dl-field__error" role="alert">
          {message}
        </p>
      )}
      <ul className="dl-notes">
        <li>{TEXTS.phoneNoteCode}</li>
        <li>{TEXTS.phoneNoteFamily}</li>
      </ul>
      <button type="submit" className="button button--primary dl-panel__action" disabled={!check.valid}>
        {TEXTS.continue}
      </button>
    </form>
  );
}
