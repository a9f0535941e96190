import type { FunnelGroup } from '../api';
import { formatCount, formatDurationMs, formatPercent } from '../format';
import { Refusals } from './Refusals';

/** One group's steps as a table: the same numbers as the chart, as text. */
export function StepTable({ group, caption }: { group: FunnelGroup; caption: string }) {
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
