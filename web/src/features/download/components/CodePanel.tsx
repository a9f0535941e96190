import { ChangeNumber } from '../../../components/flow/ChangeNumber';
import { useEffect, useState, type FormEvent } from 'react';
import { DownloadActor } from '../context';
import { TEXTS } from '../texts';
import { checkCode, CODE_LENGTH, INVALID_CODE } from '../validation';

/** Seconds left until `at` (client clock), ticking every second. */
function useSecondsUntil(at: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (at === null) return undefined;
    setNow(Date.now());
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [at]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Step 2: the 6-digit code, and the resend link after the countdown. */
export function CodePanel({ onChangeNumber }: { onChangeNumber?: () => void }) {
  const actor = DownloadActor.useActorRef();
  const maskedPhone = DownloadActor.useSelector((s) => s.context.maskedPhone);
  const rejected = DownloadActor.useSelector((s) => s.context.codeError);
  const resendAt = DownloadActor.useSelector((s) => s.context.resendAt);
  const fieldError = DownloadActor.useSelector((s) => s.context.fieldError);
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const secondsLeft = useSecondsUntil(resendAt);

  const local = checkCode(code);
  const codeMessage =
    (rejected ? INVALID_CODE : null) ??
    (fieldError?.field === 'code' ? fieldError.message : null) ??
    (touched && code.length > 0 ? local.message : null);
  const resendMessage = fieldError?.field === 'resend' ? fieldError.message : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (local.valid && !codeMessage) actor.send({ type: 'COMMAND', command: { type: 'submit_code', code } });
  };

  return (
    <form className="dl-panel" onSubmit={submit} noValidate aria-labelledby="dl-code-title">
      <h3 id="dl-code-title" className="dl-panel__title">
        {TEXTS.codeTitle}
      </h3>
      {maskedPhone && <p>{TEXTS.codeSentTo(maskedPhone)}</p>}
      {onChangeNumber && <ChangeNumber onClick={onChangeNumber} />}
      <label className="dl-field__label" htmlFor="dl-code">
        {TEXTS.codeLabel}
      </label>
      <input
        id="dl-code"
        className={`dl-field__input dl-field__input--code${codeMessage ? ' dl-field__input--error' : ''}`}
        value={code}
        onChange={(event) => {
          setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH));
          actor.send({ type: 'FIELD_EDITED', field: 'code' });
        }}
        onBlur={() => setTouched(true)}
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={CODE_LENGTH}
        aria-invalid={codeMessage ? true : undefined}
        aria-describedby={codeMessage ? 'dl-code-error' : undefined}
      />
      {codeMessage && (
        <p id="dl-code-error" className="dl-field__error" role="alert">
          {codeMessage}
        </p>
      )}
      <div className="dl-resend" aria-live="polite">
        {secondsLeft > 0 ? (
          <span className="dl-resend__countdown">{TEXTS.resendIn(secondsLeft)}</span>
        ) : (
          <button
            type="button"
            className="dl-link"
            onClick={() => actor.send({ type: 'COMMAND', command: { type: 'resend_code' } })}
          >
            {TEXTS.resend}
          </button>
        )}
        {resendMessage && (
          <p className="dl-field__error" role="alert">
            {resendMessage}
          </p>
        )}
      </div>
      <button
        type="submit"
        className="button button--primary dl-panel__action"
        disabled={!local.valid || codeMessage !== null}
      >
        {TEXTS.confirmCode}
      </button>
    </form>
  );
}
