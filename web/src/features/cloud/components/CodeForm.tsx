import { CloudActor } from '../context';
import { CODE_LENGTH } from '../rules';
import { isBusy, resendOf } from '../selectors';

/** Form 2: the SMS code, the resend link (or its countdown) and the way back to form 1. */
export function CodeForm() {
  const actor = CloudActor.useActorRef();
  const phoneMasked = CloudActor.useSelector((s) => s.context.phoneMasked);
  const code = CloudActor.useSelector((s) => s.context.code);
  const invalid = CloudActor.useSelector((s) => s.context.field === 'code');
  const disabled = CloudActor.useSelector(isBusy);
  // null while the link shows; the seconds left otherwise.
  const countdown = CloudActor.useSelector((s) => (resendOf(s) === 'countdown' ? s.context.resendSeconds : null));
  return (
    <form
      className="cloud-form"
      noValidate
      aria-label="Código de verificação"
      onSubmit={(event) => {
        event.preventDefault();
        actor.send({ type: 'SUBMIT_CODE' });
      }}
    >
      <p className="cloud-form__lead">
        Enviamos um código de 6 dígitos por SMS para <strong>{phoneMasked ?? 'o seu celular'}</strong>.
      </p>
      <div className="cloud-field">
        <label htmlFor="cloud-code">Código recebido</label>
        <input
          id="cloud-code"
          name="code"
          className="cloud-input cloud-input--code"
          value={code}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={CODE_LENGTH}
          placeholder="000000"
          aria-required="true"
          aria-invalid={invalid}
          onChange={(event) => actor.send({ type: 'CODE_CHANGED', value: event.target.value.replace(/\D/g, '') })}
        />
      </div>
      <p className="cloud-resend" aria-live="polite">
        {countdown === null ? (
          <button type="button" className="cloud-link" onClick={() => actor.send({ type: 'RESEND' })} disabled={disabled}>
            Reenviar código
          </button>
        ) : (
          <span>Reenviando em {countdown} segundos...</span>
        )}
      </p>
      <div className="cloud-form__actions">
        <button type="button" className="button button--outline" onClick={() => actor.send({ type: 'BACK' })} disabled={disabled}>
          Voltar
        </button>
        <button type="submit" className="button button--primary cloud-submit" disabled={disabled}>
          Ativar
        </button>
      </div>
    </form>
  );
}
