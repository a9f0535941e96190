// `/analise`: the conversion funnels of docs/funnels.md for analysts and admins. The URL's search
// parameters are the API's own (query.ts), so a link shows the same funnel; the form changes the
// URL and the URL drives the request. Charts load lazily (Charts.tsx); the tables carry the same
// numbers as text.


import './analytics.css';
import { useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { RequireStaff } from '../../components/staff/RequireStaff';
import { StaffApiError } from '../../lib/staff/api';
import { useStaffQuery } from '../../lib/staff/query';
import { getFunnel, type FunnelReply } from './api';
import { previousParams } from './compare';
import { FunnelForm } from './components/FunnelForm';
import { NoPermission } from './components/NoPermission';
import { FIELD_ORDER } from './components/QueryField';
import { Results } from './components/Results';
import { paramsOf, queryFromParams, validate, type FieldErrors, type FunnelQuery, type QueryField } from './query';

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
  // The same question over the period before, for the comparison; asked beside the first.
  const previousQuery = valid ? previousParams(new URLSearchParams(apiQuery)).toString() : '';
  const previous = useStaffQuery<FunnelReply>({
    queryKey: ['analytics', 'funnel', previousQuery],
    queryFn: ({ signal }) => getFunnel(new URLSearchParams(previousQuery), signal),
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
      {reply && <Results reply={reply} previous={previous.isFetching ? undefined : previous.data} />}
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
