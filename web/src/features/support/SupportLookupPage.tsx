// `/suporte`: one box for a phone (or CPF/CNPJ, e-mail, serial, attempt id), filters and pages.
// The URL's search parameters are the API's own (`?phone=11910000001&outcome=refused&page=2`),
// so back, refresh and a pasted link show the same look-up.

import { StepName } from './components/Names';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { FILTER_KEYS, SEARCH_KEYS, searchAttempts, type SearchKey, type SearchReply } from './api';
import { DateTime, FlowName } from './components/Flow';
import { OutcomeBadge } from './components/OutcomeBadge';
import { FLOWS } from '../../lib/flows';
import { formatDateTime, formatDuration } from './dates';
import { OUTCOME_OPTIONS } from './labels';
import { parseQuery, SEARCH_KINDS } from './search';
import { RequireStaff } from '../../components/staff/RequireStaff';
import { useStaffQuery } from '../../lib/staff/query';
import { SupportOnly } from './components/SupportOnly';
import { StuckPanel } from './components/StuckPanel';
import { ExportButton } from './components/ExportButton';
import { useStaff } from '../../lib/staff/session';
import { SUPPORT_ROLES } from './roles';

interface Query {
  kind: SearchKey;
  value: string;
  flow: string;
  outcome: string;
  from: string;
  to: string;
  page: number;
}

function queryOf(params: URLSearchParams): Query | null {
  const kind = SEARCH_KEYS.find((key) => params.get(key));
  if (!kind) return null;
  const page = Number(params.get('page') ?? '1');
  return {
    kind,
    value: params.get(kind) ?? '',
    flow: params.get('flow') ?? '',
    outcome: params.get('outcome') ?? '',
    from: params.get('from') ?? '',
    to: params.get('to') ?? '',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

function paramsOf(query: Query): URLSearchParams {
  const params = new URLSearchParams();
  params.set(query.kind, query.value);
  for (const key of ['flow', 'outcome', 'from', 'to'] as const) if (query[key]) params.set(key, query[key]);
  if (query.page > 1) params.set('page', String(query.page));
  return params;
}

/** Only the parameters the API knows travel to it. */
function apiParamsOf(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of [...SEARCH_KEYS, ...FILTER_KEYS]) {
    const value = params.get(key);
    if (value) out.set(key, value);
  }
  return out;
}

function SearchForm({ initial, onSearch }: { initial: Query | null; onSearch: (query: Query) => void }) {
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

function OpenLink({ id, startedAt }: { id: string; startedAt: string }) {
  const { search } = useLocation();
  return (
    <Link to={`/suporte/tentativas/${encodeURIComponent(id)}`} state={{ lookup: search }} className="sp-open">
      Ver tentativa<span className="sp-visually-hidden"> iniciada em {formatDateTime(startedAt)}</span>
    </Link>
  );
}

function Results({ reply, query }: { reply: SearchReply; query: Query }) {
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
  const pageLink = (page: number) => `?${paramsOf({ ...query, page }).toString()}`;
  return (
    <section aria-labelledby={captionId} className="sp-results">
      <h2 id={captionId} className="sp-subtitle">
        {reply.total === 1 ? '1 tentativa' : `${reply.total} tentativas`}
        <span className="sp-muted sp-results__order"> · mais recentes primeiro</span>
      </h2>
      <ExportButton params={paramsOf(query)} onUnauthorized={expired} />
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
                  <OpenLink id={attempt.id} startedAt={attempt.started_at} />
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
            <OpenLink id={attempt.id} startedAt={attempt.started_at} />
          </li>
        ))}
      </ul>
      {reply.pages > 1 && (
        <nav className="sp-pager" aria-label="Páginas de resultados">
          {reply.page > 1 ? (
            <Link to={pageLink(reply.page - 1)} className="sp-button sp-button--secondary">
              Anterior
            </Link>
          ) : (
            <span />
          )}
          <p className="sp-pager__where">
            Página {reply.page} de {reply.pages}
          </p>
          {reply.page < reply.pages ? (
            <Link to={pageLink(reply.page + 1)} className="sp-button sp-button--secondary">
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
  const [params, setParams] = useSearchParams();
  const query = queryOf(params);
  const apiQuery = apiParamsOf(params).toString();
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
      <SearchForm key={params.toString()} initial={query} onSearch={(q) => setParams(paramsOf(q))} />
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
