import { useId, useMemo, useState } from 'react';
import type { FunnelReply } from '../api';
import { mergeDurations, rebinDurations } from '../bins';
import { ChartFigure, HistogramChart } from '../Charts';
import { attemptsCount, formatBound, formatCount, formatDurationMs } from '../format';

const ALL = '__todas__';

export function HistogramSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
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
  const label = `Histograma do tempo da etapa anterior até “${step.label}”, ${attemptsCount(total)}. ${bins
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
              <strong>{formatDurationMs(single.p90_ms)}</strong> · {attemptsCount(total)}
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
