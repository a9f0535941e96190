// The look-up page's "what is stuck" card (issue 27): how many attempts have a step retrying or
// overdue past N minutes, across flows, and the list on demand. Nothing personal is shown.

import { useId, useState } from 'react';
import { Link } from 'react-router';
import { useStaffQuery } from '../../../lib/staff/query';
import { getStuck, type StuckReply } from '../api';
import { formatDateTime } from '../dates';
import { DateTime, FlowName } from './Flow';
import { StepName } from './Names';

export const STUCK_THRESHOLDS = [5, 15, 30, 60] as const;
const DEFAULT_MINUTES = 15;

const KIND_LABELS = { retrying: 'Repetindo', overdue: 'Atrasada' } as const;

export function stuckCountText(total: number, minutes: number): string {
  const attempts = total === 1 ? '1 tentativa' : `${total} tentativas`;
  return `${attempts} com etapa repetindo ou atrasada há mais de ${minutes} min, em todos os fluxos.`;
}

function StuckList({ reply }: { reply: StuckReply }) {
  return (
    <ul className="sp-stuck__list">
      {reply.attempts.map((attempt) => (
        <li key={attempt.id} className="sp-stuck__item">
          <FlowName flow={attempt.flow} variant={attempt.variant} />
          <span className={`sp-badge sp-badge--stuck-${attempt.stuck.kind}`} data-stuck={attempt.stuck.kind}>
            {KIND_LABELS[attempt.stuck.kind]}
          </span>
          <span>
            <StepName name={attempt.stuck.step} />
          </span>
          <span className="sp-muted">
            desde <DateTime iso={attempt.stuck.since}>{formatDateTime(attempt.stuck.since)}</DateTime> ·{' '}
            {attempt.stuck.minutes} min · {attempt.stuck.tries === 1 ? '1 tentativa' : `${attempt.stuck.tries} tentativas`}
          </span>
          <Link to={`/suporte/tentativas/${encodeURIComponent(attempt.id)}`} className="sp-open">
            Ver tentativa<span className="sp-visually-hidden"> parada em {attempt.stuck.step}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function StuckPanel() {
  const [minutes, setMinutes] = useState<number>(DEFAULT_MINUTES);
  const [open, setOpen] = useState(false);
  const headingId = useId();
  const listId = useId();
  const stuck = useStaffQuery<StuckReply>({
    queryKey: ['support', 'stuck', minutes],
    queryFn: ({ signal }) => getStuck(minutes, 1, signal),
  });
  const reply = stuck.data;
  return (
    <section className="sp-card sp-stuck" aria-labelledby={headingId}>
      <div className="sp-stuck__head">
        <h2 id={headingId} className="sp-subtitle">
          Tentativas paradas
        </h2>
        <div className="sp-field sp-stuck__minutes">
          <label htmlFor={`${headingId}-minutes`} className="sp-label">
            Paradas há mais de
          </label>
          <select
            id={`${headingId}-minutes`}
            className="sp-input"
            value={minutes}
            onChange={(e) => setMinutes(Number(e.target.value))}
          >
            {STUCK_THRESHOLDS.map((m) => (
              <option key={m} value={m}>
                {m} minutos
              </option>
            ))}
          </select>
        </div>
      </div>
      {stuck.message && <p className="sp-muted">Não foi possível contar as tentativas paradas: {stuck.message}</p>}
      {!reply && !stuck.message && <p className="sp-muted">Contando…</p>}
      {reply && (
        <>
          <p className="sp-stuck__count" data-testid="stuck-count" aria-live="polite">
            {stuckCountText(reply.total, minutes)}
          </p>
          {reply.total > 0 && (
            <button
              type="button"
              className="sp-button sp-button--secondary sp-button--small"
              aria-expanded={open}
              aria-controls={listId}
              onClick={() => setOpen(!open)}
            >
              {open ? 'Ocultar tentativas paradas' : 'Ver tentativas paradas'}
            </button>
          )}
          <div id={listId} hidden={!open}>
            {open && <StuckList reply={reply} />}
            {open && reply.pages > 1 && (
              <p className="sp-muted">Mostrando as {reply.attempts.length} mais antigas de {reply.total}.</p>
            )}
          </div>
        </>
      )}
    </section>
  );
}
