import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { StaffApiError } from '../../../lib/staff/api';
import { Dialog } from './Dialog';
import { MIN_REASON } from './RevealDialog';

interface Props {
  title: string;
  children: ReactNode;
  confirm: string;
  busyLabel: string;
  tone?: 'default' | 'danger';
  /** Sends the action with the typed reason; its failure's message is shown in the dialog. */
  act: (reason: string) => Promise<void>;
  onUnauthorized: () => void;
  onClose: () => void;
}

/** An action on the attempt that asks why first (the reason goes to the staff trail). */
export function ReasonDialog({ title, children, confirm, busyLabel, tone = 'default', act, onUnauthorized, onClose }: Props) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (reason.trim().length < MIN_REASON) {
      setError(`Escreva o motivo com pelo menos ${MIN_REASON} caracteres.`);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await act(reason.trim());
    } catch (failure) {
      setBusy(false);
      if (failure instanceof StaffApiError && failure.status === 401) {
        onUnauthorized();
        return;
      }
      setError(failure instanceof StaffApiError ? failure.message : 'Não foi possível concluir a ação agora.');
      input.current?.focus();
    }
  };

  return (
    <Dialog title={title} onClose={onClose} initialFocus={input} tone={tone}>
      <form onSubmit={submit} noValidate>
        {children}
        <div className="sp-field">
          <label htmlFor={`${id}-reason`} className="sp-label">
            Motivo
          </label>
          <textarea
            ref={input}
            id={`${id}-reason`}
            className="sp-input sp-textarea"
            rows={3}
            maxLength={500}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
            required
          />
          <p id={`${id}-hint`} className="sp-hint">
            Mínimo de {MIN_REASON} caracteres. Fica registrado no histórico da tentativa, com seu e-mail e a hora.
          </p>
          {error && (
            <p id={`${id}-error`} className="sp-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="sp-dialog__actions">
          <button type="button" className="sp-button sp-button--secondary" onClick={onClose}>
            Voltar
          </button>
          <button type="submit" className={`sp-button ${tone === 'danger' ? 'sp-button--danger' : 'sp-button--primary'}`} disabled={busy}>
            {busy ? busyLabel : confirm}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
