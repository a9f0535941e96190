// `/suporte/tentativas/:id`: the attempt's summary, the visitor's screen replayed event by event
// (components/AttemptReplay.tsx), its timeline with what the visitor saw after each event, its
// personal data masked (revealed one field at a time, with a reason), the staff trail, and, for
// an admin, the LGPD erasure of the person behind it. An attempt in flight
// follows the server's `changed` events and reads itself again.

import { PanelName, StepName } from './components/Names';
import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { getAttemptDetail, historyUrl, streamUrl, type Detail, type EraseReply } from './api';
import { lookupFromState } from './lookupQuery';
import { AttemptActions } from './components/AttemptActions';
import { AttemptReplay } from './components/AttemptReplay';
import { EraseDialog } from './components/EraseDialog';
import { EraseOutcome } from './components/EraseOutcome';
import { Notes } from './components/Notes';
import { attemptLink, CopyLink, eventLink, eventOf, useScrollToEvent } from './components/Permalink';
import { DateTime, FlowName } from './components/Flow';
import { OutcomeBadge } from './components/OutcomeBadge';
import { RevealDialog } from './components/RevealDialog';
import { Timeline, type TimelineMode } from './components/Timeline';
import { formatDateTime, formatDuration } from './dates';
import { fieldsOf, type MaskedField } from './masking';
import { trailEntryOf } from './trail';
import { RequireStaff } from '../../components/staff/RequireStaff';
import { useStaffQuery } from '../../lib/staff/query';
import { useStaff } from '../../lib/staff/session';
import { SupportOnly } from './components/SupportOnly';
import { SUPPORT_ROLES } from './roles';

/**
 * The detail, read again on demand (a newer read cancels one still running). A failed refresh
 * keeps what is on screen; only a failed first read, or a 404, replaces it.
 */
function useDetail(id: string) {
  const read = useStaffQuery<Detail>({
    queryKey: ['support', 'attempt', id],
    queryFn: ({ signal }) => getAttemptDetail(id, signal),
  });
  const { refetch } = read;
  const reload = useCallback(() => {
    void refetch();
  }, [refetch]);
  const failed = read.message !== null && (read.data === undefined || read.failedStatus === 404);
  return {
    detail: failed ? undefined : read.data,
    failed: failed ? { status: read.failedStatus, message: read.message ?? '' } : null,
    loading: read.data === undefined && !failed,
    reload,
  };
}

/** While the attempt is in flight, each `changed` event reads the detail again. */
function useLiveUpdates(id: string, live: boolean, reload: () => void) {
  const onChanged = useEffectEvent(() => reload());
  useEffect(() => {
    if (!live || typeof EventSource === 'undefined') return;
    const source = new EventSource(streamUrl(id));
    source.addEventListener('changed', () => onChanged());
    // A server that sends the change as an unnamed message is followed all the same.
    source.onmessage = () => onChanged();
    return () => source.close();
  }, [id, live]);
}

function Summary({ detail }: { detail: Detail }) {
  const view = detail.view ?? {};
  const panel = typeof view.panel === 'string' ? view.panel : null;
  const viewMessage = [view.message, view.error].find((v) => typeof v === 'string' && v) as string | undefined;
  return (
    <section className="sp-card sp-summary" aria-labelledby="sp-summary-title">
      <h2 id="sp-summary-title" className="sp-visually-hidden">
        Resumo
      </h2>
      <dl className="sp-pairs sp-pairs--grid">
        <div>
          <dt>Fluxo</dt>
          <dd>
            <FlowName flow={detail.flow} variant={detail.variant} />
          </dd>
        </div>
        <div>
          <dt>Resultado</dt>
          <dd>
            <OutcomeBadge outcome={detail.outcome} />
          </dd>
        </div>
        <div>
          <dt>Início</dt>
          <dd>
            <DateTime iso={detail.started_at}>{formatDateTime(detail.started_at)}</DateTime>
          </dd>
        </div>
        <div>
          <dt>Última atualização</dt>
          <dd>
            <DateTime iso={detail.updated_at}>{formatDateTime(detail.updated_at)}</DateTime>
          </dd>
        </div>
        <div>
          <dt>Última etapa</dt>
          <dd>{detail.last_step ? <StepName name={detail.last_step} /> : '—'}</dd>
        </div>
        <div>
          <dt>Duração</dt>
          <dd>{formatDuration(detail.duration_ms)}</dd>
        </div>
        <div>
          <dt>Chamadas repetidas</dt>
          <dd>{detail.retries}</dd>
        </div>
        <div>
          <dt>Tela do visitante agora</dt>
          <dd>
            {panel ? <PanelName name={panel} /> : '—'}
            {viewMessage && <span className="sp-summary__message"> “{viewMessage}”</span>}
          </dd>
        </div>
        <div className="sp-pairs__wide">
          <dt>ID</dt>
          <dd>
            <code className="sp-id">{detail.id}</code>
          </dd>
        </div>
      </dl>
    </section>
  );
}

function Fields({
  fields,
  revealed,
  onReveal,
}: {
  fields: MaskedField[];
  revealed: Record<string, string>;
  onReveal: (field: MaskedField) => void;
}) {
  return (
    <section className="sp-card" aria-labelledby="sp-fields-title">
      <h2 id="sp-fields-title" className="sp-subtitle">
        Dados pessoais
      </h2>
      {fields.length === 0 ? (
        <p className="sp-muted">Esta tentativa não guarda dados pessoais.</p>
      ) : (
        <ul className="sp-fields">
          {fields.map((field) => {
            const clear = revealed[field.name];
            return (
              <li key={field.name} className="sp-fields__item">
                <span className="sp-fields__label">{field.label}</span>
                <span className="sp-fields__value" id={`sp-field-${field.name}`} tabIndex={clear ? -1 : undefined}>
                  {clear ?? field.masked}
                  {clear && <span className="sp-tag">revelado</span>}
                </span>
                {!clear && !field.erased && (
                  <button type="button" className="sp-button sp-button--small sp-button--secondary" onClick={() => onReveal(field)}>
                    Revelar<span className="sp-visually-hidden"> {field.label}</span>
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function StaffTrail({ attemptId, trail }: { attemptId: string; trail: unknown[] }) {
  const entries = trail.map(trailEntryOf);
  return (
    <section className="sp-card" aria-labelledby="sp-trail-title">
      <h2 id="sp-trail-title" className="sp-subtitle">
        Acessos da equipe
      </h2>
      {entries.length === 0 ? (
        <p className="sp-muted">Nenhum acesso registrado.</p>
      ) : (
        <ol className="sp-trail">
          {entries.map((entry, index) => (
            <li key={index} className="sp-trail__item">
              <span className="sp-trail__when">{entry.at ? <DateTime iso={entry.at}>{formatDateTime(entry.at)}</DateTime> : '—'}</span>
              <span>
                <strong>{entry.who}</strong> {entry.what}
              </span>
              {entry.reason && <span className="sp-trail__reason">Motivo: “{entry.reason}”</span>}
              {entry.version !== null && <a href={eventLink(attemptId, entry.version)}>evento #{entry.version}</a>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function Attempt({ id }: { id: string }) {
  const { session, expired } = useStaff();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const mode: TimelineMode = params.get('vista') === 'completa' ? 'full' : 'compact';
  const { detail, failed, loading, reload } = useDetail(id);
  const target = eventOf(params);
  useScrollToEvent(target, detail !== undefined);
  const [acted, setActed] = useState<string | null>(null);
  const live = detail?.outcome.kind === 'in_flight';
  useLiveUpdates(id, live, reload);
  const [revealing, setRevealing] = useState<MaskedField | null>(null);
  const [revealed, setRevealed] = useState<Record<string, string>>({});
  const [erasing, setErasing] = useState(false);
  const [erased, setErased] = useState<EraseReply | null>(null);
  const [focusField, setFocusField] = useState<string | null>(null);
  const lookup = lookupFromState(location.state);
  const events = detail?.timeline.length ?? 0;

  // A revealed value takes the focus from the dialog (its "Revelar" button is gone).
  useEffect(() => {
    if (focusField) document.getElementById(`sp-field-${focusField}`)?.focus();
  }, [focusField]);

  const setMode = (next: TimelineMode) => {
    const nextParams = new URLSearchParams(params);
    if (next === 'full') nextParams.set('vista', 'completa');
    else nextParams.delete('vista');
    setParams(nextParams, { replace: true, state: location.state });
  };

  const back = (
    <p className="sp-back">
      <Link to="/suporte" state={lookup ? { lookup } : null}>
        ← Voltar à busca
      </Link>
    </p>
  );

  if (loading) {
    return (
      <div className="sp-page">
        {back}
        <h1 className="sp-title">Tentativa</h1>
        <p className="sp-loading" role="status">
          Carregando a tentativa…
        </p>
      </div>
    );
  }
  if (failed || !detail) {
    return (
      <div className="sp-page">
        {back}
        <h1 className="sp-title">{failed?.status === 404 ? 'Tentativa não encontrada' : 'Tentativa'}</h1>
        <div className="sp-alert sp-alert--error" role="alert">
          <p>{failed?.message ?? ''}</p>
        </div>
      </div>
    );
  }

  const fields = fieldsOf(detail.fields);

  return (
    <div className="sp-page">
      {back}
      <div className="sp-attempt__head">
        <h1 className="sp-title">
          Tentativa de {detail.started_at ? formatDateTime(detail.started_at) : detail.id}
        </h1>
        <div className="sp-attempt__actions">
          <CopyLink path={attemptLink(detail.id)} label="Copiar link da tentativa" />
          <a className="sp-button sp-button--secondary" href={historyUrl(detail.id)} download={`${detail.id}.json`}>
            Baixar histórico (JSON)
          </a>
        </div>
      </div>
      {live && (
        <p className="sp-live" role="status">
          <span className="sp-live__dot" aria-hidden="true" /> Em andamento: esta página se atualiza sozinha quando a
          tentativa avança.
        </p>
      )}
      {erased && <EraseOutcome reply={erased} />}
      {acted && (
        <div className="sp-alert sp-alert--success" role="status">
          <p>{acted}</p>
        </div>
      )}
      <Summary detail={detail} />
      <AttemptActions
        detail={detail}
        onUnauthorized={expired}
        onDone={(_, what) => {
          setActed(what);
          reload();
        }}
      />
      <Fields fields={fields} revealed={revealed} onReveal={setRevealing} />
      <AttemptReplay detail={detail} />

      <section className="sp-card" aria-labelledby="sp-timeline-title">
        <div className="sp-timeline__head">
          <h2 id="sp-timeline-title" className="sp-subtitle">
            Linha do tempo <span className="sp-muted sp-step__count">· {events === 1 ? '1 evento' : `${events} eventos`}</span>
          </h2>
          <div className="sp-toggle" role="group" aria-label="Modo de exibição">
            <button type="button" className="sp-toggle__option" aria-pressed={mode === 'compact'} onClick={() => setMode('compact')}>
              Compacto
            </button>
            <button type="button" className="sp-toggle__option" aria-pressed={mode === 'full'} onClick={() => setMode('full')}>
              Completo
            </button>
          </div>
        </div>
        <p className="sp-muted sp-legend">
          Horários de Brasília. Quem: <span className="sp-actor sp-actor--visitor">visitante</span>{' '}
          <span className="sp-actor sp-actor--runner">executor</span> (chamadas aos serviços parceiros){' '}
          <span className="sp-actor sp-actor--staff">equipe</span>
        </p>
        <Timeline entries={detail.timeline} mode={mode} link={{ attemptId: detail.id, version: target }} />
      </section>

      <Notes attemptId={detail.id} notes={detail.notes ?? []} onAdded={() => reload()} onUnauthorized={expired} />

      <StaffTrail attemptId={detail.id} trail={detail.staff_trail ?? []} />

      {session.role === 'admin' && (
        <section className="sp-card sp-danger-zone" aria-labelledby="sp-lgpd-title">
          <h2 id="sp-lgpd-title" className="sp-subtitle">
            LGPD
          </h2>
          <p className="sp-muted">
            Pedido de eliminação de dados (art. 18 da LGPD): apaga os dados da pessoa que usou o telefone desta tentativa.
          </p>
          <button type="button" className="sp-button sp-button--danger" onClick={() => setErasing(true)}>
            Apagar dados da pessoa (LGPD)
          </button>
        </section>
      )}

      {revealing && (
        <RevealDialog
          attemptId={detail.id}
          field={revealing}
          onClose={() => setRevealing(null)}
          onUnauthorized={expired}
          onRevealed={(name, value) => {
            setRevealed((current) => ({ ...current, [name]: value }));
            setRevealing(null);
            setFocusField(name);
            // The reveal is in the staff trail now.
            reload();
          }}
        />
      )}
      {erasing && (
        <EraseDialog
          attemptId={detail.id}
          onClose={() => setErasing(false)}
          onUnauthorized={expired}
          onErased={(reply) => {
            setErasing(false);
            setErased(reply);
            setRevealed({});
            reload();
          }}
        />
      )}
    </div>
  );
}

export default function SupportAttemptPage() {
  usePageMeta({ title: 'Tentativa · Suporte', description: 'Console de suporte da EXA.', noindex: true });
  const { id = '' } = useParams();
  return (
    <RequireStaff roles={SUPPORT_ROLES} denied={<SupportOnly />}>
      <Attempt key={id} id={id} />
    </RequireStaff>
  );
}
