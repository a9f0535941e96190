import { PanelName, StepName } from './Names';
import type { Seen, TimelineEntry } from '../api';
import { formatDateTime, formatTime } from '../dates';
import { actorLabel } from '../labels';
import { limitLabel } from '../labels';
import { eventElementId, eventLink } from './Permalink';

export type TimelineMode = 'compact' | 'full';

interface Group {
  step: string | null;
  entries: TimelineEntry[];
}

/** Consecutive events of one step form a group; events without a step stand alone. */
export function groupByStep(entries: TimelineEntry[]): Group[] {
  const groups: Group[] = [];
  for (const entry of entries) {
    const step = entry.step ?? null;
    const last = groups[groups.length - 1];
    if (step !== null && last && last.step === step) last.entries.push(entry);
    else groups.push({ step, entries: [entry] });
  }
  return groups;
}

const sameSeen = (a: Seen | null | undefined, b: Seen | null | undefined) =>
  (a?.panel ?? null) === (b?.panel ?? null) && (a?.message ?? null) === (b?.message ?? null);

/** What an upstream call's event tells at a glance: HTTP status, latency, retries, error. */
function callFacts(data: unknown): string[] {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const d = data as Record<string, unknown>;
  const facts: string[] = [];
  const status = d.status ?? d.http_status;
  if (typeof status === 'number') facts.push(`HTTP ${status}`);
  const latency = d.latency_ms ?? d.elapsed_ms;
  if (typeof latency === 'number') facts.push(`${latency} ms`);
  const retries = d.retries ?? d.attempts;
  if (typeof retries === 'number' && retries > 0) facts.push(retries === 1 ? '1 repetição' : `${retries} repetições`);
  const reason = d.reason ?? d.error;
  if (typeof reason === 'string' && reason) facts.push(reason);
  // A refusal by an abuse limit: which limit, and what the visitor was told.
  if (typeof d.rule === 'string') facts.push(limitLabel(d.rule));
  if (typeof d.rule === 'string' && typeof d.message === 'string') facts.push(`“${d.message}”`);
  return [...new Set(facts)];
}

function SeenBox({ seen, changed, mode }: { seen: Seen | null | undefined; changed: boolean; mode: TimelineMode }) {
  return (
    <div className={`sp-seen${changed ? ' sp-seen--changed' : ''}`}>
      <p className="sp-seen__label">
        O que o visitante viu{!changed && <span className="sp-seen__same"> (sem mudança)</span>}
      </p>
      <p className="sp-seen__text">
        {seen?.panel ? <PanelName name={seen.panel} /> : <span className="sp-muted">sem tela</span>}
        {seen?.message ? (
          <span className="sp-seen__message">“{seen.message}”</span>
        ) : (
          mode === 'full' && <span className="sp-muted"> sem mensagem</span>
        )}
      </p>
    </div>
  );
}

/** A permalink's target in the timeline: the attempt, and the event the URL names. */
export interface LinkTarget {
  attemptId: string;
  version: number | null;
}

function Event({
  entry,
  previous,
  mode,
  link,
}: {
  entry: TimelineEntry;
  previous: Seen | null | undefined;
  mode: TimelineMode;
  link?: LinkTarget;
}) {
  const facts = callFacts(entry.data);
  const changed = !sameSeen(entry.seen, previous);
  const targeted = link?.version === entry.version;
  return (
    <li
      className={`sp-event sp-event--${mode}${targeted ? ' sp-event--target' : ''}`}
      data-version={entry.version}
      id={link ? eventElementId(entry.version) : undefined}
      tabIndex={link ? -1 : undefined}
      aria-current={targeted ? 'location' : undefined}
    >
      <div className="sp-event__what">
        <p className="sp-event__head">
          <time dateTime={entry.at} title={formatDateTime(entry.at)} className="sp-event__time">
            {formatTime(entry.at)}
          </time>
          <span className={`sp-actor sp-actor--${entry.actor}`}>{actorLabel(entry.actor)}</span>
          <code className="sp-event__type">{entry.type}</code>
          {facts.map((fact) => (
            <span key={fact} className="sp-fact">
              {fact}
            </span>
          ))}
          {link ? (
            <a className="sp-event__version" href={eventLink(link.attemptId, entry.version)}>
              <span className="sp-visually-hidden">link do evento, versão </span>#{entry.version}
            </a>
          ) : (
            <span className="sp-event__version">
              <span className="sp-visually-hidden">versão </span>#{entry.version}
            </span>
          )}
        </p>
        {mode === 'full' && entry.data !== undefined && entry.data !== null && (
          <pre className="sp-json" tabIndex={0} aria-label={`Dados do evento ${entry.type}`}>
            {JSON.stringify(entry.data, null, 2)}
          </pre>
        )}
      </div>
      <SeenBox seen={entry.seen} changed={changed} mode={mode} />
    </li>
  );
}

/** Every event of the attempt, oldest first, grouped by step, with what the visitor saw after it. */
export function Timeline({ entries, mode, link }: { entries: TimelineEntry[]; mode: TimelineMode; link?: LinkTarget }) {
  if (entries.length === 0) return <p className="sp-muted">Esta tentativa ainda não tem eventos.</p>;
  const previousSeen = new Map<number, Seen | null | undefined>();
  entries.forEach((entry, index) => previousSeen.set(entry.version, index > 0 ? entries[index - 1].seen : undefined));
  return (
    <ol className={`sp-timeline sp-timeline--${mode}`}>
      {groupByStep(entries).map((group) =>
        group.step ? (
          <li key={`step-${group.entries[0].version}`} className="sp-step">
            <h3 className="sp-step__title">
              Etapa <StepName name={group.step} />
              <span className="sp-muted sp-step__count">
                {' '}
                · {group.entries.length === 1 ? '1 evento' : `${group.entries.length} eventos`}
              </span>
            </h3>
            <ol className="sp-step__events">
              {group.entries.map((entry) => (
                <Event key={entry.version} entry={entry} previous={previousSeen.get(entry.version)} mode={mode} link={link} />
              ))}
            </ol>
          </li>
        ) : (
          group.entries.map((entry) => (
            <Event key={entry.version} entry={entry} previous={previousSeen.get(entry.version)} mode={mode} link={link} />
          ))
        ),
      )}
    </ol>
  );
}
