// `/suporte`: one box for a phone (or CPF/CNPJ, e-mail, serial, attempt id), filters and pages.
// The search lives in the page's history state (lookupQuery.ts), so back and refresh show the
// same look-up while the address stays `/suporte`.

import { StepName } from './components/Names';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { searchAttempts, type SearchKey, type SearchReply } from './api';
import { apiParamsOf, lookupFromAddress, lookupFromState, type LookupQuery } from './lookupQuery';
import { DateTime, FlowName } from './components/Flow';
import { OutcomeBadge } from './components/OutcomeBadge';
import { FLOWS } from '../../lib/flows';
import { formatDateTime, formatDuration } from './dates';
import { OUTCOME_OPTIONS } from './labels';
import { parseQuery, SEARCH_KINDS } from './search';
import { RequireStaff } from '../../components/staff/RequireStaff';
import { ReadLag } from '../../components/staff/ReadLag';
import { useStaffQuery } from '../../lib/staff/query';
import { SupportOnly } from './components/SupportOnly';
import { StuckPanel } from './components/StuckPanel';
import { ExportButton } from './components/ExportButton';
import { useStaff } from '../../lib/staff/session';
import { SUPPORT_ROLES } from './roles';

function SearchForm({ initial, onSearch }: { initial: LookupQuery | null; onSearch: (query: LookupQuery) => void }) {
  const [kind, setKind] = useState<SearchKey>(initial?.kind ?? 'phone');
  const [value, setValue] = useState(initial?.value ?? '');
  const [flow, setFlow] = useState(initial?.flow ?? '');
  const [outcome, setOutcome] = useState(initial?.outcome ?? '');
  const [from, setFrom] = useState(initial?.from ?? '');
  const [to, setTo] = useState(initial?.to ?? '');
  const [error, setError] = useState<{ field: 'value' | 'to'; message: string } | null>(null);
  const valueRef = useRef<HTMLInputElement>(null);
  const toRef = useRef<HTMLInputElement>(null);
  const kindInfo = SEARCH_KINDS.find((k) => k.key === kind) ?? SEARCH_KINDS[0];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseQuery(kind, value);
    if (!parsed.ok) {
      setError({ field: 'value', message: parsed.message });
      valueRef.current?.focus();
      return;
    }
    if (from && to && from > to) {
      setError({ field: 'to', message: 'A data final precisa ser igual ou posterior à data inicial.' });
      toRef.current?.focus();
      return;
    }
    setError(null);
    onSearch({ kind, value: parsed.value, flow, outcome, from, to, page: 1 });
  };

  const valueError = error?.field === 'value' ? error.message : null;
  const toError = error?.field === 'to' ? error.message : null;

  return (
    <form className="sp-card sp-search" onSubmit={submit} noValidate role="search" aria-label="Buscar tentativas">
      <div className="sp-search__main">
        <div className="sp-field sp-search__kind">
          <label htmlFor="sp-kind" className="sp-label">
            Buscar por
          </label>
          <select
            id="sp-kind"
            className="sp-input"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as SearchKey);
              setError(null);
            }}
          >
            {SEARCH_KINDS.map((k) => (
              <option key={k.key} value={k.key}>
                {k.label}
              </option>
            ))}
          </select>
        </div>
        <div className="sp-field sp-search__value">
          <label htmlFor="sp-value" className="sp-label">
            {kindInfo.label}
          </label>
          <input
            ref={valueRef}
            id="sp-value"
            className="sp-input"
            type={kind === 'email' ? 'email' : 'search'}
            inputMode={kind === 'phone' ? 'tel' : kind === 'email' ? 'email' : 'text'}
            autoComplete="off"
            spellCheck={false}
            placeholder={kindInfo.placeholder}
            value={value}
            onChange={(e) => setValue(e.target.value)}
            aria-invalid={valueError ? true : undefined}
            aria-describedby={valueError ? 'sp-value-hint sp-value-error' : 'sp-value-hint'}
          />
          <p id="sp-value-hint" className="sp-hint">
            {kind === 'phone'
              ? 'Com DDD, em qualquer formato: (11) 91000-0001, 11910000001 ou +55 11 91000-0001.'
              : 'Digite o valor completo.'}
          </p>
          {valueError && (
            <p id="sp-value-error" className="sp-field__error" role="alert">
              {valueError}
            </p>
          )}
        </div>
        <button type="submit" className="sp-button sp-button--primary sp-search__submit">
          Buscar
        </button>
      </div>
      <fieldset className="sp-filters">
        <legend className="sp-filters__legend">Filtros</legend>
        <div className="sp-field">
          <label htmlFor="sp-flow" className="sp-label">
            Fluxo
          </label>
          <select id="sp-flow" className="sp-input" value={flow} onChange={(e) => setFlow(e.target.value)}>
            <option value="">Todos os fluxos</option>
            {FLOWS.map(({ key, label }) => (
              <option key={key} value={key}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="sp-field">
          <label htmlFor="sp-outcome" className="sp-label">
            Resultado
          </label>
          <select id="sp-outcome" className="sp-input" value={outcome} onChange={(e) => setOutcome(e.target.value)}>
            <option value="">Todos os resultados</option>
            {OUTCOME_OPTIONS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <div className="sp-field">
          <label htmlFor="sp-from" className="sp-label">
            De
          </label>
          <input id="sp-from" className="sp-input" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </div>
        <div className="sp-field">
          <label htmlFor="sp-to" className="sp-label">
            Até
          </label>
          <input
            ref={toRef}
            id="sp-to"
            className="sp-input"
            type="date"
            value={to}
            onChange={(e) => setTo(e.target.value)}
            aria-invalid={toError ? true : undefined}
            aria-describedby={toError ? 'sp-to-error' : undefined}
          />
          {toError && (
            <p id="sp-to-error" className="sp-field__error" role="alert">
              {toError}
            </p>
          )}
        </div>
      </fieldset>
    </form>
  );
}

function OpenLink({ id, startedAt, query }: { id: string; startedAt: string; query: LookupQuery }) {
  return (
    <Link to={`/suporte/tentativas/${encodeURIComponent(id)}`} state={{ lookup: query }} className="sp-open">
      Ver tentativa<span className="sp-visually-hidden"> iniciada em {formatDateTime(startedAt)}</span>
    </Link>
  );
}

function Results({ reply, query }: { reply: SearchReply; query: LookupQuery }) {
  const captionId = useId();
  const { expired } = useStaff();
  if (reply.attempts.length === 0) {
    return (
      <div className="sp-card sp-empty">
        <h2 className="sp-subtitle">Nenhuma tentativa encontrada</h2>
        <p className="sp-muted">
          Confira o que foi digitado{query.flow || query.outcome || query.from || query.to ? ' ou limpe os filtros' : ''}.
          Só aparecem tentativas feitas no portal.
        </p>
      </div>
    );
  }
  const pageState = (page: number) => ({ lookup: { ...query, page } });
  return (
    <section aria-labelledby={captionId} className="sp-results">
      <h2 id={captionId} className="sp-subtitle">
        {reply.total === 1 ? '1 tentativa' : `${reply.total} tentativas`}
        <span className="sp-muted sp-results__order"> · mais recentes primeiro</span>
      </h2>
      <ExportButton params={apiParamsOf(query)} onUnauthorized={expired} />
      <div className="sp-table-wrap">
        <table className="sp-table">
          <thead>
            <tr>
              <th scope="col">Fluxo</th>
              <th scope="col">Início</th>
              <th scope="col">Última etapa</th>
              <th scope="col">Resultado</th>
              <th scope="col">Duração</th>
              <th scope="col">Repetições</th>
              <th scope="col">
                <span className="sp-visually-hidden">Abrir</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {reply.attempts.map((attempt) => (
              <tr key={attempt.id}>
                <td>
                  <FlowName flow={attempt.flow} variant={attempt.variant} />
                </td>
                <td>
                  <DateTime iso={attempt.started_at}>{formatDateTime(attempt.started_at)}</DateTime>
                </td>
                <td>{attempt.last_step ? <StepName name={attempt.last_step} /> : '—'}</td>
                <td>
                  <OutcomeBadge outcome={attempt.outcome} />
                </td>
                <td className="sp-nowrap">{formatDuration(attempt.duration_ms)}</td>
                <td className="sp-num">{attempt.retries}</td>
                <td>
                  <OpenLink id={attempt.id} startedAt={attempt.started_at} query={query} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="sp-cards">
        {reply.attempts.map((attempt) => (
          <li key={attempt.id} className="sp-card sp-result-card">
            <h3 className="sp-result-card__title">
              <FlowName flow={attempt.flow} variant={attempt.variant} />
            </h3>
            <OutcomeBadge outcome={attempt.outcome} />
            <dl className="sp-pairs">
              <div>
                <dt>Início</dt>
                <dd>
                  <DateTime iso={attempt.started_at}>{formatDateTime(attempt.started_at)}</DateTime>
                </dd>
              </div>
              <div>
                <dt>Última etapa</dt>
                <dd>{attempt.last_step ? <StepName name={attempt.last_step} /> : '—'}</dd>
              </div>
              <div>
                <dt>Duração</dt>
                <dd>{formatDuration(attempt.duration_ms)}</dd>
              </div>
              <div>
                <dt>Repetições</dt>
                <dd>{attempt.retries}</dd>
              </div>
            </dl>
            <OpenLink id={attempt.id} startedAt={attempt.started_at} query={query} />
          </li>
        ))}
      </ul>
      {reply.pages > 1 && (
        <nav className="sp-pager" aria-label="Páginas de resultados">
          {reply.page > 1 ? (
            <Link to="/suporte" state={pageState(reply.page - 1)} className="sp-button sp-button--secondary">
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <p className="sp-pager__where">
            Página {reply.page} de {reply.pages}
          </p>
          {reply.page < reply.pages ? (
            <Link to="/suporte" state={pageState(reply.page + 1)} className="sp-button sp-button--secondary">
              Próxima
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}

function Lookup() {
  const location = useLocation();
  const navigate = useNavigate();
  const query = lookupFromState(location.state) ?? lookupFromAddress(new URLSearchParams(location.search));
  // An old link (`/suporte?phone=…`) is moved out of the address at once: its entry is replaced.
  useEffect(() => {
    if (!location.search) return;
    const legacy = lookupFromAddress(new URLSearchParams(location.search));
    navigate('/suporte', { replace: true, state: legacy ? { lookup: legacy } : null });
  }, [location.search, navigate]);
  const apiQuery = query ? apiParamsOf(query).toString() : '';
  // The search runs again only when what the API gets changes; no query, no search.
  const found = useStaffQuery<SearchReply>({
    queryKey: ['support', 'attempts', apiQuery],
    queryFn: ({ signal }) => searchAttempts(new URLSearchParams(apiQuery), signal),
    enabled: query !== null,
  });
  const loading = query !== null && found.isFetching;
  const reply = query !== null && !loading ? found.data : undefined;
  const message = query !== null && !loading ? found.message : null;

  return (
    <div className="sp-page">
      <h1 className="sp-title">Buscar tentativas</h1>
      <p className="sp-muted sp-lead">
        Digite o telefone que o cliente informou para ver todas as tentativas feitas com ele, nos três fluxos.
      </p>
      <StuckPanel />
      <SearchForm key={apiQuery} initial={query} onSearch={(q) => navigate('/suporte', { state: { lookup: q } })} />
      <div aria-live="polite" className="sp-visually-hidden">
        {loading ? 'Buscando…' : reply ? `${reply.total} tentativas encontradas.` : ''}
      </div>
      {loading && (
        <p className="sp-loading" aria-hidden="true">
          Buscando…
        </p>
      )}
      {message && (
        <div className="sp-alert sp-alert--error" role="alert">
          <p>{message}</p>
        </div>
      )}
      {reply && <ReadLag seconds={reply.read_lag_seconds} />}
      {reply && query && <Results reply={reply} query={query} />}
    </div>
  );
}

export default function SupportLookupPage() {
  usePageMeta({ title: 'Buscar tentativas · Suporte', description: 'Console de suporte da EXA.', noindex: true });
  return (
    <RequireStaff roles={SUPPORT_ROLES} denied={<SupportOnly />}>
      <Lookup />
    </RequireStaff>
  );
}
