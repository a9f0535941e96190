// The attempt's notes (issue 27): who wrote each and when, its text, a link to it; and a form to
// add one. Notes are personal data kept with the attempt: erasing the person erases them.

import { useId, useState, type FormEvent } from 'react';
import { StaffApiError } from '../../../lib/staff/api';
import { addNote, type ActionReply, type Note } from '../api';
import { formatDateTime } from '../dates';
import { DateTime } from './Flow';
import { eventLink } from './Permalink';

export const NOTE_MAX = 2000;

interface Props {
  attemptId: string;
  notes: Note[];
  onAdded: (reply: ActionReply) => void;
  onUnauthorized: () => void;
}

export function Notes({ attemptId, notes, onAdded, onUnauthorized }: Props) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) {
      setError('Escreva a nota.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await addNote(attemptId, text.trim());
      setText('');
      onAdded(reply);
    } catch (failure) {
      if (failure instanceof StaffApiError && failure.status === 401) {
        onUnauthorized();
        return;
      }
      setError(failure instanceof StaffApiError ? failure.message : 'Não foi possível salvar a nota agora.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="sp-card sp-notes" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="sp-subtitle">
        Notas
      </h2>
      {notes.length === 0 ? (
        <p className="sp-muted">Nenhuma nota ainda.</p>
      ) : (
        <ol className="sp-notes__list">
          {notes.map((note) => (
            <li key={note.version} className="sp-notes__item">
              <p className="sp-notes__meta">
                <strong>{note.by}</strong> · <DateTime iso={note.at}>{formatDateTime(note.at)}</DateTime> ·{' '}
                <a href={eventLink(attemptId, note.version)}>
                  Link<span className="sp-visually-hidden"> da nota (evento #{note.version})</span>
                </a>
              </p>
              <p className={note.erased ? 'sp-notes__text sp-muted' : 'sp-notes__text'}>{note.text}</p>
            </li>
          ))}
        </ol>
      )}
      <form onSubmit={submit} noValidate className="sp-notes__form">
        <div className="sp-field">
          <label htmlFor={`${id}-text`} className="sp-label">
            Nova nota
          </label>
          <textarea
            id={`${id}-text`}
            className="sp-input sp-textarea"
            rows={3}
            maxLength={NOTE_MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          />
          <p id={`${id}-hint`} className="sp-hint">
            Até {NOTE_MAX} caracteres. A nota é guardada com os dados da pessoa e apagada junto com eles.
          </p>
          {error && (
            <p id={`${id}-error`} className="sp-field__error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" className="sp-button sp-button--primary" disabled={busy}>
          {busy ? 'Salvando…' : 'Salvar nota'}
        </button>
      </form>
    </section>
  );
}
