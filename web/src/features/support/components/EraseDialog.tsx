import { useRef, useState, type FormEvent } from 'react';
import { StaffApiError } from '../../../lib/staff/api';
import { erasePersonOfAttempt, type EraseReply } from '../api';
import { Dialog } from './Dialog';

export const ERASE_WORD = 'APAGAR';

interface Props {
  attemptId: string;
  onErased: (reply: EraseReply) => void;
  onUnauthorized: () => void;
  onClose: () => void;
}

/** LGPD erasure of the attempt and of the person who proved a phone in it (admin); typing APAGAR confirms. */
export function EraseDialog({ attemptId, onErased, onUnauthorized, onClose }: Props) {
  const [word, setWord] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const confirmed = word.trim() === ERASE_WORD;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!confirmed) {
      setError(`Digite ${ERASE_WORD}, em letras maiúsculas, para confirmar.`);
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      onErased(await erasePersonOfAttempt(attemptId));
    } catch (failure) {
      setBusy(false);
      if (failure instanceof StaffApiError && failure.status === 401) {
        onUnauthorized();
        return;
      }
      setError(failure instanceof StaffApiError ? failure.message : 'Não foi possível apagar os dados agora.');
    }
  };

  return (
    <Dialog title="Apagar dados da pessoa (LGPD)" onClose={onClose} initialFocus={input} tone="danger">
      <form onSubmit={submit} noValidate>
        <p>
          Isto apaga, sem volta, os tokens desta tentativa e o telefone que a pessoa confirmou nela por SMS, em todas as
          tentativas (e os tokens das tentativas em que ela o confirmou). O que foi só digitado (outro telefone,
          CPF/CNPJ, e-mail) pode ser de outra pessoa: não é apagado, fica listado para você decidir. As linhas do tempo
          continuam visíveis, com os campos como “dado apagado (LGPD)”.
        </p>
        <div className="sp-field">
          <label htmlFor="sp-erase-word" className="sp-label">
            Digite {ERASE_WORD} para confirmar
          </label>
          <input
            ref={input}
            id="sp-erase-word"
            className="sp-input"
            autoComplete="off"
            spellCheck={false}
            value={word}
            onChange={(e) => setWord(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'sp-erase-error' : undefined}
          />
          {error && (
            <p id="sp-erase-error" className="sp-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <div className="sp-dialog__actions">
          <button type="button" className="sp-button sp-button--secondary" onClick={onClose}>
            Cancelar
          </button>
          <button type="submit" className="sp-button sp-button--danger" disabled={busy || !confirmed}>
            {busy ? 'Apagando…' : 'Apagar dados'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
