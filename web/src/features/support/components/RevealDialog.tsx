import { useRef, useState, type FormEvent } from 'react';
import { StaffApiError } from '../../../lib/staff/api';
import { revealField } from '../api';
import type { MaskedField } from '../masking';
import { Dialog } from './Dialog';

export const MIN_REASON = 10;

interface Props {
  attemptId: string;
  field: MaskedField;
  onRevealed: (field: string, value: string) => void;
  onUnauthorized: () => void;
  onClose: () => void;
}

/** Reveals one field after the agent types why (audited in the attempt's staff trail). */
export function RevealDialog({ attemptId, field, onRevealed, onUnauthorized, onClose }: Props) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const typed = reason.trim().length;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (typed < MIN_REASON) {
      setError(`Escreva o motivo com pelo menos ${MIN_REASON} caracteres.`);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await revealField(attemptId, field.name, reason.trim());
      onRevealed(reply.field ?? field.name, reply.value);
    } catch (failure) {
      setBusy(false);
      if (failure instanceof StaffApiError && failure.status === 401) {
        onUnauthorized();
        return;
      }
      setError(failure instanceof StaffApiError ? failure.message : 'Não foi possível revelar o dado agora.');
      input.current?.focus();
    }
  };

  return (
    <Dialog title={`Revelar ${field.label}`} onClose={onClose} initialFocus={input}>
      <form onSubmit={submit} noValidate>
        <p>
          O valor completo aparece só para você. O motivo que você escrever fica registrado no histórico da tentativa,
          com seu e-mail e a hora.
        </p>
        <div className="sp-field">
          <label htmlFor="sp-reason" className="sp-label">
            Motivo
          </label>
          <textarea
            ref={input}
            id="sp-reason"
            className="sp-input sp-textarea"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sp-reason-hint sp-reason-error' : 'sp-reason-hint'}
            required
          />
          <p id="sp-reason-hint" className="sp-hint">
            Mínimo de {MIN_REASON} caracteres. Ex.: “Cliente ao telefone confirmou o número para conferência”.
          </p>
          {error && (
            <p id="sp-reason-error" className="sp-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="sp-dialog__actions">
          <button type="button" className="sp-button sp-button--secondary" onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className="sp-button sp-button--primary" disabled={busy}>
            {busy ? 'Revelando…' : 'Revelar'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
