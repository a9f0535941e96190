import { ChangeNumber } from '../../../components/flow/ChangeNumber';
import { CodesExhausted } from '../../../components/flow/CodesExhausted';
import { codesExhausted } from '../../../lib/attempts/regions';
import { CodeField } from '../../../components/flow/CodeField';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { CloudActor } from '../context';
import { activationStageOf, isBusy, resendOf } from '../selectors';
import { resendingIn } from '../texts';

/** Form 2: the SMS code, the resend link (or its countdown) and the way back to form 1. */
export function CodePanel({ onStartAgain }: { onStartAgain: () => void }) {
  const actor = CloudActor.useActorRef();
  const phoneMasked = CloudActor.useSelector((s) => s.context.phoneMasked);
  const code = CloudActor.useSelector((s) => s.context.code);
  const invalid = CloudActor.useSelector((s) => s.context.field === 'code');
  const disabled = CloudActor.useSelector(isBusy);
  const stage = CloudActor.useSelector(activationStageOf);
  // null while the link shows; the seconds left otherwise.
  const countdown = CloudActor.useSelector((s) => (resendOf(s) === 'countdown' ? s.context.resendSeconds : null));
  const exhausted = CloudActor.useSelector((s) => codesExhausted(s.context));
  const back = () => actor.send({ type: 'BACK' });
  if (exhausted) return <CodesExhausted onStartAgain={onStartAgain} />;
  return (
    <form
      className="cloud-form"
      noValidate
      aria-label="Código de verificação"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SUBMIT' });
      }}
    >
      <p className="cloud-form__lead">
        Enviamos um código de 6 dígitos por SMS para <strong>{phoneMasked ?? 'o seu celular'}</strong>.
      </p>
      {!disabled && <ChangeNumber onClick={back} />}
      <CodeField
        id="cloud-code"
        label="Código recebido"
        value={code}
        invalid={invalid}
        onChange={(value) => actor.send({ type: 'FIELD_CHANGED', field: 'code', value })}
      />
      <p className="cloud-resend" aria-live="polite">
        {countdown === null ? (
          <button type="button" className="cloud-link" onClick={() => actor.send({ type: 'RESEND' })} disabled={disabled}>
            Reenviar código
          </button>
        ) : (
          <span>{resendingIn(countdown)}</span>
        )}
      </p>
      <div className="cloud-form__actions">
        <button type="button" className="button button--outline" onClick={back} disabled={disabled}>
          Voltar
        </button>
        <LoadingButton busy={stage !== null} busyLabel={stage?.button} disabled={disabled} className="cloud-submit">
          Ativar
        </LoadingButton>
      </div>
      {stage && (
        <p className="flow-status" aria-live="polite">
          {stage.line}
        </p>
      )}
    </form>
  );
}
