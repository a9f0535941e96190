import { useEffect, useState, type FormEvent } from 'react';
import { ChangeNumber } from '../../../components/flow/ChangeNumber';
import { CodeField } from '../../../components/flow/CodeField';
import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { DownloadActor } from '../context';
import { busyLabelOf, isBusy } from '../selectors';
import { useDismissible } from './useDismissible';
import { INVALID_CODE, TEXTS } from '../texts';
import { checkCode } from '../rules';
import { useReplay } from '../../../components/flow/replay';

/**
 * Seconds left until `at` (client clock), ticking every second; in the support console's
 * replay, at the replayed event's time.
 */
function useSecondsUntil(at: number | null): number {
  const replay = useReplay();
  const [live, setNow] = useState(() => Date.now());
  const now = replay?.at ?? live;
  useEffect(() => {
    if (at === null || replay !== null) return undefined;
    const tick = () => setNow(Date.now());
    // The clock is read again as soon as a new deadline arrives, then four times a second.
    const first = window.setTimeout(tick, 0);
    const timer = window.setInterval(tick, 250);
    return () => {
      window.clearTimeout(first);
      window.clearInterval(timer);
    };
  }, [at, replay]);
  return at === null ? 0 : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Step 2: the 6-digit code, and the resend link after the countdown. */
export function CodePanel({ onChangeNumber }: { onChangeNumber?: () => void }) {
  const actor = DownloadActor.useActorRef();
  const maskedPhone = DownloadActor.useSelector((s) => s.context.maskedPhone);
  const rejected = DownloadActor.useSelector((s) => s.context.codeError);
  const resendAt = DownloadActor.useSelector((s) => s.context.resendAt);
  const fieldError = DownloadActor.useSelector((s) => s.context.field);
  const serverMessage = DownloadActor.useSelector((s) => s.context.error);
  const code = DownloadActor.useSelector((s) => s.context.code);
  const [touched, setTouched] = useState(false);
  const secondsLeft = useSecondsUntil(resendAt);
  const busy = DownloadActor.useSelector(isBusy);
  const busyLabel = DownloadActor.useSelector(busyLabelOf);
  const confirming = DownloadActor.useSelector((s) => isBusy(s) && s.context.outgoing?.type === 'submit_code');

  const local = checkCode(code);
  const codeMessage =
    (rejected ? INVALID_CODE : null) ??
    (fieldError === 'code' ? serverMessage : null) ??
    (touched && code.length > 0 ? local.message : null);
  const resendMessage = fieldError === 'resend' ? serverMessage : null;
  const [shown, dismiss] = useDismissible(codeMessage ?? resendMessage, code);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // The machine sends a valid code not yet refused.
    actor.send({ type: 'SUBMIT' });
  };

  return (
    <form className="dl-panel" onSubmit={submit} noValidate aria-labelledby="dl-code-title">
      <h3 id="dl-code-title" className="dl-panel__title">
        {TEXTS.codeTitle}
      </h3>
      {maskedPhone && <p>{TEXTS.codeSentTo(maskedPhone)}</p>}
      {onChangeNumber && <ChangeNumber onClick={onChangeNumber} />}
      {shown && <ErrorBanner id="dl-code-error" message={shown} onDismiss={dismiss} />}
      <CodeField
        id="dl-code"
        label={TEXTS.codeLabel}
        value={code}
        onChange={(digits) => actor.send({ type: 'FIELD_CHANGED', field: 'code', value: digits })}
        onBlur={() => setTouched(true)}
        invalid={codeMessage !== null}
        describedBy={shown ? 'dl-code-error' : undefined}
      />
      <div className="dl-resend" aria-live="polite">
        {secondsLeft > 0 ? (
          <span className="dl-resend__countdown">{TEXTS.resendIn(secondsLeft)}</span>
        ) : (
          <button
            type="button"
            className="dl-link"
            onClick={() => actor.send({ type: 'RESEND' })}
          >
            {TEXTS.resend}
          </button>
        )}
      </div>
      <LoadingButton
        busy={confirming}
        busyLabel={busyLabel}
        disabled={busy || !local.valid || codeMessage !== null}
        className="dl-panel__action"
      >
        {TEXTS.confirmCode}
      </LoadingButton>
    </form>
  );
}
