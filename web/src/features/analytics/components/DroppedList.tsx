// From a drop-off to its attempts: the attempts (or, counting people, each person's furthest
// attempt) that reached a step and not the next, a page at a time, newest first, with the refusal
// they read. Staff who may open attempts in the support console get its id and a link; analysts
// an anonymous id (GET /api/analytics/funnel/dropped, docs/funnels.md).

import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { variantLabel } from '../../../lib/flows';
import { useStaffQuery } from '../../../lib/staff/query';
import { getDropped, type Count, type DroppedReply } from '../api';
import { countOf, formatAsOf, platformLabel } from '../format';

interface Props {
  /** The funnel's question (the API's search parameters). */
  question: string;
  step: number;
  stepLabel: string;
  /** The breakdown value the table is of; null without a breakdown. */
  group: string | null;
  groupLabel: string;
  count: Count;
  onClose: () => void;
}

export function DroppedList({ question, step, stepLabel, group, groupLabel, count, onClose }: Props) {
  const [page, setPage] = useState(1);
  const titleId = useId();
  const title = useRef<HTMLHeadingElement>(null);
  const params = new URLSearchParams(question);
  params.set('step', String(step));
  params.set('page', String(page));
  if (group !== null) params.set('group', group);
  const apiQuery = params.toString();
  const dropped = useStaffQuery<DroppedReply>({
    queryKey: ['analytics', 'dropped', apiQuery],
    queryFn: ({ signal }) => getDropped(new URLSearchParams(apiQuery), signal),
    placeholderData: keepPreviousData,
  });
  const reply = dropped.data;

  // Opened from a button in the table: the list's title takes the focus.
  useEffect(() => title.current?.focus(), []);

  return (
    <section className="sp-card an-dropped" aria-labelledby={titleId} aria-busy={dropped.isFetching}>
      <div className="an-dropped__head">
        <h3 id={titleId} ref={title} tabIndex={-1} className="sp-subtitle">
          Pararam em “{stepLabel}”{group !== null ? ` · ${groupLabel}` : ''}
        </h3>
        <button type="button" className="sp-button sp-button--secondary sp-button--small" onClick={onClose}>
          Fechar a lista
        </button>
      </div>
      <div aria-live="polite" className="sp-visually-hidden">
        {dropped.isFetching ? 'Carregando as tentativas…' : reply ? `Página ${reply.page} de ${Math.max(reply.pages, 1)}.` : ''}
      </div>
      {dropped.message && (
        <div className="sp-alert sp-alert--error" role="alert">
          <p>{dropped.message}</p>
        </div>
      )}
      {!reply && dropped.isFetching && <p className="sp-loading">Carregando as tentativas…</p>}
      {reply && (
        <>
          <p className="sp-muted an-dropped__note">
            {countOf(reply.total, count)} {reply.total === 1 ? 'parou' : 'pararam'} aqui
            {count === 'people' ? ' (de cada pessoa, a tentativa que foi mais longe)' : ''}, das mais recentes às mais
            antigas.{' '}
            {reply.ids === 'attempt'
              ? 'Abra uma tentativa para vê-la no console de suporte.'
              : 'Os códigos são anônimos: não identificam a tentativa nem a pessoa.'}
          </p>
          {reply.attempts.length > 0 && (
            <div className="sp-table-wrap an-table-wrap" tabIndex={0} role="region" aria-label={`Tentativas que pararam em ${stepLabel}`}>
              <table className="sp-table an-table an-dropped__table">
                <thead>
                  <tr>
                    <th scope="col">{reply.ids === 'attempt' ? 'Tentativa' : 'Código anônimo'}</th>
                    <th scope="col">Início (Brasília)</th>
                    <th scope="col">Variante</th>
                    <th scope="col">Sistema</th>
                    <th scope="col">Plataforma</th>
                    <th scope="col">Mensagem de recusa exibida</th>
                  </tr>
                </thead>
                <tbody>
                  {reply.attempts.map((attempt) => (
                    <tr key={attempt.id}>
                      <th scope="row" className="an-dropped__id">
                        {attempt.console ? (
                          <Link to={attempt.console} className="sp-id">
                            {attempt.id}
                          </Link>
                        ) : (
                          <code className="sp-id">{attempt.id}</code>
                        )}
                      </th>
                      <td className="sp-nowrap">{formatAsOf(attempt.started_at)}</td>
                      <td>{variantLabel(attempt.variant) || '—'}</td>
                      <td>{attempt.os}</td>
                      <td>{platformLabel(attempt.platform)}</td>
                      <td>{attempt.refusal ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {reply.pages > 1 && (
            <nav className="sp-pager" aria-label="Páginas das tentativas que pararam">
              {reply.page > 1 ? (
                <button type="button" className="sp-button sp-button--secondary" onClick={() => setPage(reply.page - 1)}>
                  Anterior
                </button>
              ) : (
                <span />
              )}
              <p className="sp-pager__where">
                Página {reply.page} de {reply.pages}
              </p>
              {reply.page < reply.pages ? (
                <button type="button" className="sp-button sp-button--secondary" onClick={() => setPage(reply.page + 1)}>
                  Próxima
                </button>
              ) : (
                <span />
              )}
            </nav>
          )}
        </>
      )}
    </section>
  );
}
