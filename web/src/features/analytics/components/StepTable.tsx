import { useId, useRef, useState } from 'react';
import type { Count, FunnelGroup } from '../api';
import { formatCount, formatDurationMs, formatPercent } from '../format';
import { DroppedList } from './DroppedList';
import { Refusals } from './Refusals';

/** What the drill-down from a drop-off asks: the funnel's question, and the table's group. */
export interface Drill {
  question: string;
  group: string | null;
  groupLabel: string;
  count: Count;
}

/**
 * One group's steps as a table: the same numbers as the chart, as text. Each drop-off opens the
 * attempts that stopped there, below the table.
 */
export function StepTable({ group, caption, drill }: { group: FunnelGroup; caption: string; drill?: Drill }) {
  const [open, setOpen] = useState<number | null>(null);
  const listId = useId();
  const last = group.steps.length - 1;
  const openStep = open === null ? undefined : group.steps[open];
  const buttons = useRef(new Map<number, HTMLButtonElement>());
  // Closing the list gives the focus back to the button that opened it.
  const close = () => {
    if (open !== null) buttons.current.get(open)?.focus();
    setOpen(null);
  };
  return (
    <div className="an-step-table">
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
          {group.steps.map((step, index) => (
            <tr key={step.key}>
              <th scope="row" className="an-table__step">
                {step.label}
              </th>
              <td className="an-num sp-num">{formatCount(step.entered)}</td>
              <td className="an-num sp-num">{formatPercent(step.from_previous)}</td>
              <td className="an-num sp-num">{formatPercent(step.from_first)}</td>
              <td className="an-num sp-num">
                {formatCount(step.dropped)}
                {drill && index < last && step.dropped > 0 && (
                  <button
                    type="button"
                    ref={(button) => {
                      if (button) buttons.current.set(index, button);
                      else buttons.current.delete(index);
                    }}
                    className="an-drop-open"
                    aria-expanded={open === index}
                    aria-controls={open === index ? listId : undefined}
                    onClick={() => setOpen(open === index ? null : index)}
                  >
                    Ver tentativas que pararam aqui<span className="sp-visually-hidden"> ({step.label})</span>
                  </button>
                )}
              </td>
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
    {drill && open !== null && openStep && (
      <div id={listId}>
        <DroppedList
          key={open}
          question={drill.question}
          step={open}
          stepLabel={openStep.label}
          group={drill.group}
          groupLabel={drill.groupLabel}
          count={drill.count}
          onClose={close}
        />
      </div>
    )}
    </div>
  );
}
