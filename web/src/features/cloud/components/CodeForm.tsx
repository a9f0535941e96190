import { CODE_LENGTH } from '../rules';

interface Props {
  phoneMasked: string | null;
  code: string;
  invalid: boolean;
  disabled: boolean;
  /** null while the link shows; the seconds left otherwise. */
  countdown: number | null;
  onCode: (value: string) => void;
  onSubmit: () => void;
  onResend: () => void;
  onBack: () => void;
}

/** Form 2: the SMS code, the resend link (or its countdown) and the way back to form 1. */
export function CodeForm({ phoneMasked, code, invalid, disabled, countdown, onCode, onSubmit, onResend, onBack }: Props) {
  return (
    <form
      className="cloud-form"
      noValidate
      aria-label="Código de verificação"
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
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
          onChange={(event) => onCode(event.target.value.replace(/\D/g, ''))}
        />
      </div>
      <p className="cloud-resend" aria-live="polite">
        {countdown === null ? (
          <button type="button" className="cloud-link" onClick={onResend} disabled={disabled}>
            Reenviar código
          </button>
        ) : (
          <span>Reenviando em {countdown} segundos...</span>
        )}
      </p>
      <div className="cloud-form__actions">
        <button type="button" className="button button--outline" onClick={onBack} disabled={disabled}>
          Voltar
        </button>
        <button type="submit" className="button button--primary cloud-submit" disabled={disabled}>
          Ativar
        </button>
      </div>
    </form>
  );
}
