// "The visitor's screen, replayed" (issue 27): the attempt's events folded again by the page's own
// machine (the flow's `ReplayFlow`, components/flow/replay.ts), and the visitor's screen after
// each one shown by the page's own panels, read-only (`inert`: nothing takes the focus, nothing
// is clicked, no command is sent), personal data masked as the timeline gives it. A scrubber and
// the list of events choose the moment; at the latest one the replay follows the attempt live.

import './replay.css';
import { useEffect, useMemo, useRef, useState } from 'react';
import { replayAt, ReplayContext, useReplayFlow } from '../../../components/flow/replay';
import type { Detail } from '../api';
import { formatDateTime, formatTime } from '../dates';
import { actorLabel, panelLabel } from '../labels';
import { PanelName } from './Names';

export function AttemptReplay({ detail }: { detail: Detail }) {
  const flow = useReplayFlow(detail.flow);
  const events = detail.timeline;
  const variant = detail.variant ?? null;
  const frames = useMemo(() => (flow ? flow.fold(events, variant) : []), [flow, events, variant]);
  const actors = useMemo(() => new Map(events.map((e) => [e.version, e.actor])), [events]);
  // null: the latest event, followed as the attempt moves on.
  const [chosen, setChosen] = useState<number | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const last = frames.length - 1;
  const index = chosen === null ? last : Math.min(chosen, last);

  // The chosen event stays in sight in the list beside the screen (the list scrolls, not the page).
  useEffect(() => {
    const box = list.current;
    const item = box?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!box || !item || box.scrollHeight <= box.clientHeight) return;
    // The list is positioned: its items' offsets are from its own top, whatever it scrolled.
    const top = item.offsetTop;
    if (top < box.scrollTop || top + item.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - box.clientHeight / 2);
    }
  }, [index]);

  if (!flow || frames.length === 0) return null;
  const go = (next: number) => setChosen(next >= last ? null : Math.max(0, next));
  const frame = frames[index];
  const panel = flow.panelOf(frame);
  const { Screen } = flow;
  const count = frames.length;

  return (
    <section className="sp-card sp-replay" aria-labelledby="sp-replay-title">
      <h2 id="sp-replay-title" className="sp-subtitle">
        Tela do visitante, passo a passo
      </h2>
      <p className="sp-muted sp-replay__lead">
        Refeita a partir dos eventos, pela mesma máquina da página do visitante (nada do navegador dele é gravado).
        Somente leitura, com os dados pessoais mascarados.
      </p>
      <div className="sp-replay__scrubber">
        <label htmlFor="sp-replay-range" className="sp-replay__position">
          Evento <strong>{index + 1}</strong> de {count}
        </label>
        <div className="sp-replay__controls">
          <button
            type="button"
            className="sp-button sp-button--small sp-button--secondary"
            onClick={() => go(index - 1)}
            disabled={index === 0}
          >
            <span aria-hidden="true">←</span> Anterior
          </button>
          <input
            id="sp-replay-range"
            className="sp-replay__range"
            type="range"
            min={1}
            max={count}
            step={1}
            value={index + 1}
            aria-valuetext={`Evento ${index + 1} de ${count}: ${frame.type}, ${formatTime(frame.at)}, tela ${panelLabel(panel)}`}
            onChange={(event) => go(Number(event.target.value) - 1)}
          />
          <button
            type="button"
            className="sp-button sp-button--small sp-button--secondary"
            onClick={() => go(index + 1)}
            disabled={index === last}
          >
            Próximo <span aria-hidden="true">→</span>
          </button>
        </div>
        <p className="sp-replay__ends sp-muted">
          <span>{formatTime(frames[0].at)}</span>
          <span>{formatTime(frames[last].at)}</span>
        </p>
      </div>
      <div className="sp-replay__body">
        <figure className="sp-replay__figure">
          <figcaption className="sp-replay__caption">
            Depois de <code>{frame.type}</code>, às{' '}
            <time dateTime={frame.at} title={formatDateTime(frame.at)}>
              {formatTime(frame.at)}
            </time>
            : <PanelName name={panel} />
          </figcaption>
          <div className="sp-replay__screen" inert data-panel={panel} data-version={frame.version}>
            <ReplayContext.Provider value={replayAt(flow, frames, index)}>
              <Screen key={frame.version} frame={frame} variant={variant} events={events} />
            </ReplayContext.Provider>
          </div>
        </figure>
        <ol className="sp-replay__events" ref={list} aria-label="Eventos da tentativa">
          {frames.map((item, i) => {
            const actor = actors.get(item.version) ?? 'runner';
            return (
              <li key={item.version}>
                <button
                  type="button"
                  className="sp-replay__event"
                  aria-current={i === index ? 'step' : undefined}
                  onClick={() => go(i)}
                >
                  <span className="sp-replay__event-number">{i + 1}</span>
                  <time dateTime={item.at}>{formatTime(item.at)}</time>
                  <span className={`sp-actor sp-actor--${actor}`}>{actorLabel(actor)}</span>
                  <code className="sp-replay__event-type">{item.type}</code>
                  <span className="sp-replay__event-panel">{panelLabel(flow.panelOf(item))}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </div>
    </section>
  );
}
