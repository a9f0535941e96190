import { useId, useMemo } from 'react';
import type { FunnelReply } from '../api';
import { perDaySeries } from '../bins';
import { ChartFigure, PerDayChart } from '../Charts';
import { formatCount, formatDay, formatPercent, formatShortDay } from '../format';

export function PerDaySection({ reply }: { reply: FunnelReply }) {
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
