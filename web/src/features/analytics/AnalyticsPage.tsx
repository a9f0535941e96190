// `/analise`: the conversion funnels of docs/funnels.md for analysts and admins. The URL's search
// parameters are the API's own (query.ts), so a link shows the same funnel; the form changes the
// URL and the URL drives the request. Charts load lazily (Charts.tsx); the tables carry the same
// numbers as text.

import './analytics.css';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { RequireStaff } from '../../components/staff/RequireStaff';
import { StaffApiError } from '../../lib/staff/api';
import { useStaffQuery } from '../../lib/staff/query';
import { HOME_PATH } from '../../lib/staff/session';
import { getFunnel, type FunnelGroup, type FunnelReply, type FunnelStep } from './api';
import { chartGroups, funnelBars, mergeDurations, perDaySeries, rebinDurations } from './bins';
import { ChartFigure, FunnelChart, HistogramChart, PerDayChart } from './Charts';
import {
  BREAKDOWN_OPTIONS,
  breakdownLabel,
  FLOW_OPTIONS,
  flowOptionLabel,
  formatAsOf,
  formatBound,
  formatCount,
  formatDay,
  formatDurationMs,
  formatPercent,
  formatShortDay,
  groupLabel,
  ORDER_OPTIONS,
  VARIANT_OPTIONS,
  variantOptionLabel,
} from './format';
import { paramsOf, queryFromParams, validate, type FieldErrors, type FunnelQuery, type QueryField } from './query';

export const PERMISSION_TITLE = 'Sem permissão para ver os funis';
/** The chart draws at most this many groups; the tables show them all. */
const CHART_GROUP_LIMIT = 6;
const TOP_REFUSALS = 3;

const FIELD_IDS: Record<QueryField, string> = {
  flow: 'an-flow',
  variant: 'an-variant',
  from: 'an-from',
  to: 'an-to',
  window: 'an-window',
  order: 'an-order',
  breakdown: 'an-breakdown',
};
const FIELD_ORDER: QueryField[] = ['flow', 'variant', 'from', 'to', 'window', 'order', 'breakdown'];

function FieldError({ field, errors }: { field: QueryField; errors: FieldErrors }) {
  const message = errors[field];
  if (!message) return null;
  return (
    <p id={`${FIELD_IDS[field]}-error`} className="sp-field__error" role="alert">
      {message}
    </p>
  );
}

/** aria-invalid and aria-describedby of a field with, maybe, an error (and a hint). */
function described(field: QueryField, errors: FieldErrors, hint?: string) {
  const ids = [hint, errors[field] ? `${FIELD_IDS[field]}-error` : undefined].filter(Boolean).join(' ');
  return { 'aria-invalid': errors[field] ? true : undefined, 'aria-describedby': ids || undefined };
}

interface FormProps {
  initial: FunnelQuery;
  /** Errors the URL's query or the server found; replaced by the form's own on submit. */
  initialErrors: FieldErrors;
  busy: boolean;
  onSubmit: (query: FunnelQuery) => void;
}

function FunnelForm({ initial, initialErrors, busy, onSubmit }: FormProps) {
  const [query, setQuery] = useState<FunnelQuery>(initial);
  const [errors, setErrors] = useState<FieldErrors | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const shown = errors ?? initialErrors;
  const set = <K extends keyof FunnelQuery>(key: K, value: FunnelQuery[K]) => setQuery((q) => ({ ...q, [key]: value }));
  const orderHint = ORDER_OPTIONS.find((o) => o.value === query.order)?.hint;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate(query);
    setErrors(found);
    const first = FIELD_ORDER.find((field) => found[field]);
    if (first) {
      form.current?.querySelector<HTMLElement>(`#${FIELD_IDS[first]}`)?.focus();
      return;
    }
    onSubmit({ ...query, window: query.window.trim(), variant: query.flow === 'activation' ? query.variant : '' });
  };

  return (
    <form ref={form} className="sp-card an-form" onSubmit={submit} noValidate aria-label="Escolher o funil">
      <div className="an-form__grid">
        <div className="sp-field">
          <label htmlFor="an-flow" className="sp-label">
            Fluxo
          </label>
          <select
            id="an-flow"
            className="sp-input"
            value={query.flow}
            onChange={(e) => set('flow', e.target.value as FunnelQuery['flow'])}
          >
            {FLOW_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        {query.flow === 'activation' && (
          <div className="sp-field an-form__wide">
            <label htmlFor="an-variant" className="sp-label">
              Variante
            </label>
            <select
              id="an-variant"
              className="sp-input"
              value={query.variant}
              onChange={(e) => set('variant', e.target.value as FunnelQuery['variant'])}
              {...described('variant', shown, 'an-variant-hint')}
            >
              <option value="">Todas (só as etapas em comum)</option>
              {VARIANT_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label} ({o.path})
                </option>
              ))}
            </select>
            <p id="an-variant-hint" className="sp-hint">
              Sem variante, o funil mostra só as etapas que todas as páginas de ativação têm.
            </p>
            <FieldError field="variant" errors={shown} />
          </div>
        )}
        <div className="sp-field">
          <label htmlFor="an-from" className="sp-label">
            De
          </label>
          <input
            id="an-from"
            className="sp-input"
            type="date"
            value={query.from}
            onChange={(e) => set('from', e.target.value)}
            {...described('from', shown)}
          />
          <FieldError field="from" errors={shown} />
        </div>
        <div className="sp-field">
          <label htmlFor="an-to" className="sp-label">
            Até
          </label>
          <input
            id="an-to"
            className="sp-input"
            type="date"
            value={query.to}
            onChange={(e) => set('to', e.target.value)}
            {...described('to', shown)}
          />
          <FieldError field="to" errors={shown} />
        </div>
        <div className="sp-field">
          <label htmlFor="an-window" className="sp-label">
            Janela (dias)
          </label>
          <input
            id="an-window"
            className="sp-input"
            type="number"
            inputMode="numeric"
            min={1}
            step={1}
            value={query.window}
            onChange={(e) => set('window', e.target.value)}
            {...described('window', shown, 'an-window-hint')}
          />
          <p id="an-window-hint" className="sp-hint">
            Etapas alcançadas depois desse prazo, contado do início, não contam.
          </p>
          <FieldError field="window" errors={shown} />
        </div>
        <div className="sp-field">
          <label htmlFor="an-order" className="sp-label">
            Ordem
          </label>
          <select
            id="an-order"
            className="sp-input"
            value={query.order}
            onChange={(e) => set('order', e.target.value as FunnelQuery['order'])}
            {...described('order', shown, 'an-order-hint')}
          >
            {ORDER_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <p id="an-order-hint" className="sp-hint">
            {orderHint}
          </p>
          <FieldError field="order" errors={shown} />
        </div>
        <div className="sp-field">
          <label htmlFor="an-breakdown" className="sp-label">
            Detalhar por
          </label>
          <select
            id="an-breakdown"
            className="sp-input"
            value={query.breakdown}
            onChange={(e) => set('breakdown', e.target.value as FunnelQuery['breakdown'])}
            {...described('breakdown', shown)}
          >
            {BREAKDOWN_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
          <FieldError field="breakdown" errors={shown} />
        </div>
      </div>
      <div className="an-form__actions">
        <button type="submit" className="sp-button sp-button--primary" disabled={busy}>
          {busy ? 'Carregando…' : 'Ver funil'}
        </button>
      </div>
    </form>
  );
}

function Refusals({ step }: { step: FunnelStep }) {
  if (step.refusals.length === 0) return <>—</>;
  const sorted = [...step.refusals].sort((a, b) => b.count - a.count);
  const rest = sorted.slice(TOP_REFUSALS);
  const restCount = rest.reduce((sum, r) => sum + r.count, 0);
  return (
    <ul className="an-refusals">
      {sorted.slice(0, TOP_REFUSALS).map((refusal) => (
        <li key={refusal.message}>
          <span>{refusal.message}</span> <span className="an-refusals__count sp-num">({formatCount(refusal.count)})</span>
        </li>
      ))}
      {rest.length > 0 && (
        <li className="sp-muted">
          e mais {rest.length === 1 ? '1 mensagem' : `${formatCount(rest.length)} mensagens`} ({formatCount(restCount)})
        </li>
      )}
    </ul>
  );
}

function StepTable({ group, caption }: { group: FunnelGroup; caption: string }) {
  return (
    <div className="sp-table-wrap an-table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="sp-table an-table">
        <caption className="an-table__caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Etapa</th>
            <th scope="col" className="an-num">
              Entraram
            </th>
            <th scope="col" className="an-num">
              % da anterior
            </th>
            <th scope="col" className="an-num">
              % da primeira
            </th>
            <th scope="col" className="an-num">
              Desistiram
            </th>
            <th scope="col">Principais recusas</th>
            <th scope="col" className="an-num">
              Tempo desde a etapa anterior (mediana)
            </th>
            <th scope="col" className="an-num">
              Tempo desde a etapa anterior (p90)
            </th>
          </tr>
        </thead>
        <tbody>
          {group.steps.map((step) => (
            <tr key={step.key}>
              <th scope="row" className="an-table__step">
                {step.label}
              </th>
              <td className="an-num sp-num">{formatCount(step.entered)}</td>
              <td className="an-num sp-num">{formatPercent(step.from_previous)}</td>
              <td className="an-num sp-num">{formatPercent(step.from_first)}</td>
              <td className="an-num sp-num">{formatCount(step.dropped)}</td>
              <td className="an-table__refusals">
                <Refusals step={step} />
              </td>
              <td className="an-num sp-num sp-nowrap">{formatDurationMs(step.median_ms)}</td>
              <td className="an-num sp-num sp-nowrap">{formatDurationMs(step.p90_ms)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const attemptsText = (n: number) => (n === 1 ? '1 tentativa' : `${formatCount(n)} tentativas`);

function FunnelSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
  const titleId = useId();
  const shown = chartGroups(reply.groups, CHART_GROUP_LIMIT);
  const bars = funnelBars(reply.steps, shown);
  const groups = shown.map((g) => ({ key: g.key, label: labelOf(g.key) }));
  const label = `Gráfico de barras do funil. ${groups
    .map(
      (g) =>
        `${g.label}: ${bars
          .map((bar) => `${bar.label}, ${formatCount(bar.entered[g.key] ?? 0)} (${formatPercent(bar.fromFirst[g.key])})`)
          .join('; ')}`,
    )
    .join('. ')}.`;
  return (
    <section className="sp-card an-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Funil
      </h2>
      <ChartFigure
        label={label}
        caption={
          <>
            Quantas tentativas entraram em cada etapa e a porcentagem da primeira etapa
            {groups.length > 1 ? ', por grupo' : ''}.
            {shown.length < reply.groups.length &&
              ` O gráfico mostra os ${CHART_GROUP_LIMIT} grupos com mais tentativas; as tabelas trazem todos os ${reply.groups.length}.`}
          </>
        }
      >
        <FunnelChart bars={bars} groups={groups} />
      </ChartFigure>
    </section>
  );
}

function TablesSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
  const titleId = useId();
  return (
    <section className="an-section an-tables" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Etapas
      </h2>
      {reply.groups.map((group) => (
        <StepTable key={group.key} group={group} caption={`${labelOf(group.key)} · ${attemptsText(group.attempts)}`} />
      ))}
    </section>
  );
}

const ALL = '__todas__';

function HistogramSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
  const titleId = useId();
  const stepId = useId();
  const groupId = useId();
  const timed = reply.steps.slice(1);
  const [stepKey, setStepKey] = useState(timed[timed.length - 1]?.key ?? '');
  const [groupKey, setGroupKey] = useState(reply.groups.length === 1 ? reply.groups[0].key : ALL);
  const step = reply.steps.find((s) => s.key === stepKey);
  const chosen = useMemo(
    () => (groupKey === ALL ? reply.groups : reply.groups.filter((g) => g.key === groupKey)),
    [reply.groups, groupKey],
  );
  const buckets = useMemo(() => mergeDurations(chosen, stepKey), [chosen, stepKey]);
  const bins = useMemo(() => rebinDurations(buckets), [buckets]);
  if (!step || timed.length === 0) return null;
  const single = chosen.length === 1 ? chosen[0].steps.find((s) => s.key === stepKey) : undefined;
  const total = bins.reduce((sum, bin) => sum + bin.count, 0);
  const range = (from: number, to: number) => `de ${formatBound(from)} a ${formatBound(to)}`;
  const label = `Histograma do tempo da etapa anterior até “${step.label}”, ${attemptsText(total)}. ${bins
    .map((bin) => `${range(bin.from_ms, bin.to_ms)}: ${formatCount(bin.count)}`)
    .join('; ')}.`;
  return (
    <section className="sp-card an-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Tempo entre etapas
      </h2>
      <div className="an-controls">
        <div className="sp-field">
          <label htmlFor={stepId} className="sp-label">
            Etapa
          </label>
          <select id={stepId} className="sp-input" value={stepKey} onChange={(e) => setStepKey(e.target.value)}>
            {timed.map((s) => (
              <option key={s.key} value={s.key}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {reply.groups.length > 1 && (
          <div className="sp-field">
            <label htmlFor={groupId} className="sp-label">
              Grupo
            </label>
            <select id={groupId} className="sp-input" value={groupKey} onChange={(e) => setGroupKey(e.target.value)}>
              <option value={ALL}>Todos os grupos</option>
              {reply.groups.map((g) => (
                <option key={g.key} value={g.key}>
                  {labelOf(g.key)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      {bins.length === 0 ? (
        <p className="sp-muted">Nenhuma tentativa chegou a essa etapa no período.</p>
      ) : (
        <>
          {single && (
            <p className="an-stats">
              Mediana <strong>{formatDurationMs(single.median_ms)}</strong> · p90{' '}
              <strong>{formatDurationMs(single.p90_ms)}</strong> · {attemptsText(total)}
            </p>
          )}
          <ChartFigure label={label} caption="Tempo entre a etapa anterior e esta (faixas em escala logarítmica).">
            <HistogramChart bins={bins} />
          </ChartFigure>
          <details className="an-details">
            <summary>Ver as faixas em tabela</summary>
            <div className="sp-table-wrap an-table-wrap">
              <table className="sp-table an-table">
                <thead>
                  <tr>
                    <th scope="col">Tempo desde a etapa anterior</th>
                    <th scope="col" className="an-num">
                      Tentativas
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {bins.map((bin) => (
                    <tr key={bin.from_ms}>
                      <th scope="row">{range(bin.from_ms, bin.to_ms)}</th>
                      <td className="an-num sp-num">{formatCount(bin.count)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      )}
    </section>
  );
}

function PerDaySection({ reply }: { reply: FunnelReply }) {
  const titleId = useId();
  const points = useMemo(() => perDaySeries(reply.per_day, reply.from, reply.to), [reply]);
  const last = reply.steps[reply.steps.length - 1]?.label ?? '';
  const withAttempts = points.filter((p) => p.rate !== null);
  const without = points.length - withAttempts.length;
  const label = `Linha da conversão por dia. ${withAttempts
    .map((p) => `${formatShortDay(p.day)}: ${formatPercent(p.rate)}`)
    .join('; ')}.${without ? ` ${without === 1 ? 'Um dia' : `${formatCount(without)} dias`} sem tentativas.` : ''}`;
  return (
    <section className="sp-card an-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Conversão por dia
      </h2>
      <ChartFigure
        label={label}
        caption={`Das tentativas que começaram em cada dia, a porcentagem que chegou a “${last}”, em todos os grupos.`}
      >
        <PerDayChart points={points} />
      </ChartFigure>
      <details className="an-details">
        <summary>Ver os dias em tabela</summary>
        <div className="sp-table-wrap an-table-wrap">
          <table className="sp-table an-table">
            <thead>
              <tr>
                <th scope="col">Dia</th>
                <th scope="col" className="an-num">
                  Começaram
                </th>
                <th scope="col" className="an-num">
                  Concluíram
                </th>
                <th scope="col" className="an-num">
                  Conversão
                </th>
              </tr>
            </thead>
            <tbody>
              {points.map((p) => (
                <tr key={p.day}>
                  <th scope="row">{formatDay(p.day)}</th>
                  <td className="an-num sp-num">{formatCount(p.entered)}</td>
                  <td className="an-num sp-num">{formatCount(p.converted)}</td>
                  <td className="an-num sp-num">{formatPercent(p.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}

function describeReply(reply: FunnelReply): string {
  const parts = [flowOptionLabel(reply.flow)];
  if (reply.variant) parts.push(variantOptionLabel(reply.variant));
  parts.push(`${formatDay(reply.from)} a ${formatDay(reply.to)}`);
  parts.push(`janela de ${formatCount(reply.window_days)} ${reply.window_days === 1 ? 'dia' : 'dias'}`);
  parts.push(`ordem ${(ORDER_OPTIONS.find((o) => o.value === reply.order)?.label ?? reply.order).toLowerCase()}`);
  if (reply.breakdown) parts.push(`por ${breakdownLabel(reply.breakdown).toLowerCase()}`);
  return parts.join(' · ');
}

function Results({ reply }: { reply: FunnelReply }) {
  const labelOf = (key: string) => groupLabel(key, reply.breakdown ?? '');
  const attempts = reply.groups.reduce((sum, g) => sum + g.attempts, 0);
  return (
    <div className="an-results">
      <div className="an-results__head">
        <p className="an-results__what">{describeReply(reply)}</p>
        <p className="sp-muted an-results__asof">Dados atualizados em {formatAsOf(reply.as_of)} (horário de Brasília).</p>
      </div>
      {attempts === 0 ? (
        <div className="sp-card sp-empty">
          <h2 className="sp-subtitle">Nenhuma tentativa nesse período.</h2>
          <p className="sp-muted">Tente um período maior ou outro fluxo.</p>
        </div>
      ) : (
        <>
          <p className="an-total">
            <strong>{attemptsText(attempts)}</strong> no período
            {reply.groups.length > 1 ? `, em ${formatCount(reply.groups.length)} grupos` : ''}.
          </p>
          <FunnelSection reply={reply} labelOf={labelOf} />
          <TablesSection reply={reply} labelOf={labelOf} />
          <HistogramSection key={`${reply.flow}-${reply.variant ?? ''}-${reply.breakdown ?? ''}`} reply={reply} labelOf={labelOf} />
          <PerDaySection reply={reply} />
        </>
      )}
    </div>
  );
}

function NoPermission({ message }: { message: string }) {
  return (
    <section className="sp-card" aria-labelledby="an-denied-title">
      <h1 id="an-denied-title" className="sp-title">
        {PERMISSION_TITLE}
      </h1>
      <div className="sp-alert sp-alert--error an-denied" role="alert">
        <p>{message}</p>
      </div>
      <p>
        Os funis de conversão são para analistas e para a administração. Para buscar as tentativas de um cliente, use a{' '}
        <Link to={HOME_PATH}>busca do suporte</Link>.
      </p>
    </section>
  );
}

function Funnels() {
  const [params, setParams] = useSearchParams();
  const current = params.toString();
  const query = useMemo(() => queryFromParams(new URLSearchParams(current)), [current]);
  const apiQuery = paramsOf(query).toString();
  const urlErrors = useMemo(() => validate(query), [query]);
  const valid = Object.keys(urlErrors).length === 0;

  // A URL with parts left out (the first visit: no query at all) is written out in full, so the
  // address bar always shows what is on screen and can be shared as it is.
  useEffect(() => {
    if (current !== apiQuery) setParams(new URLSearchParams(apiQuery), { replace: true });
  }, [current, apiQuery, setParams]);

  // Asked once the URL is written out in full and the question is valid.
  const asked = current === apiQuery && valid;
  const funnel = useStaffQuery<FunnelReply>({
    queryKey: ['analytics', 'funnel', apiQuery],
    queryFn: ({ signal }) => getFunnel(new URLSearchParams(apiQuery), signal),
    enabled: asked,
  });
  const loading = asked && funnel.isFetching;
  const message = asked && !loading ? funnel.message : null;
  const reply = asked && !loading ? funnel.data : undefined;

  if (message && funnel.failedStatus === 403) return <NoPermission message={message} />;

  const badField = funnel.failedStatus === 400 && funnel.error instanceof StaffApiError ? funnel.error.field : null;
  const field = badField && (FIELD_ORDER as string[]).includes(badField) ? (badField as QueryField) : null;
  const serverErrors: FieldErrors = message && field ? { [field]: message } : {};
  const submit = (next: FunnelQuery) => {
    const nextQuery = paramsOf(next).toString();
    if (nextQuery === current) void funnel.refetch();
    else setParams(new URLSearchParams(nextQuery));
  };

  return (
    <div className="sp-page an-page">
      <h1 className="sp-title">Funis de conversão</h1>
      <p className="sp-muted sp-lead">
        Onde as tentativas param, etapa por etapa, contadas a partir do registro de eventos. Datas no horário de Brasília.
      </p>
      <FunnelForm
        key={`${current}#${message ?? ''}`}
        initial={query}
        initialErrors={{ ...urlErrors, ...serverErrors }}
        busy={loading}
        onSubmit={submit}
      />
      <div aria-live="polite" className="sp-visually-hidden">
        {loading ? 'Carregando o funil…' : reply ? 'Funil carregado.' : ''}
      </div>
      {loading && (
        <p className="sp-loading an-loading" aria-hidden="true">
          Carregando o funil…
        </p>
      )}
      {message && !field && (
        <div className="sp-alert sp-alert--error" role="alert">
          <p>{message}</p>
        </div>
      )}
      {reply && <Results reply={reply} />}
    </div>
  );
}

export default function AnalyticsPage() {
  usePageMeta({ title: 'Funis de conversão · Análise', description: 'Console de análise da EXA.', noindex: true });
  return (
    <RequireStaff
      roles={['analyst', 'admin']}
      denied={<NoPermission message="Você não tem permissão para esta ação." />}
    >
      <Funnels />
    </RequireStaff>
  );
}
