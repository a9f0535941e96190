import { useId } from 'react';
import type { FunnelReply } from '../api';
import { chartGroups, funnelBars } from '../bins';
import { ChartFigure, FunnelChart } from '../Charts';
import { countNoun, formatCount, formatPercent } from '../format';

/** The chart draws at most this many groups; the tables show them all. */
const CHART_GROUP_LIMIT = 6;

export function FunnelSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
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
        Funil, em {countNoun(reply.count)}
      </h2>
      <ChartFigure
        label={label}
        caption={
          <>
            Quantas {countNoun(reply.count)} entraram em cada etapa e a porcentagem da primeira etapa
            {groups.length > 1 ? ', por grupo' : ''}.
            {shown.length < reply.groups.length &&
              ` O gráfico mostra os ${CHART_GROUP_LIMIT} grupos com mais ${countNoun(reply.count)}; as tabelas trazem todos os ${reply.groups.length}.`}
          </>
        }
      >
        <FunnelChart bars={bars} groups={groups} />
      </ChartFigure>
    </section>
  );
}
