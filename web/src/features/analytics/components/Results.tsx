import type { FunnelReply } from '../api';
import {
  breakdownLabel,
  countNoun,
  countOf,
  flowOptionLabel,
  formatAsOf,
  formatCount,
  formatDay,
  groupLabel,
  ORDER_OPTIONS,
  variantOptionLabel,
} from '../format';
import { ComparisonSection } from './ComparisonSection';
import { DriversSection } from './DriversSection';
import { FunnelSection } from './FunnelSection';
import { HistogramSection } from './HistogramSection';
import { PerDaySection } from './PerDaySection';
import { ReadLag } from '../../../components/staff/ReadLag';
import { TablesSection } from './TablesSection';

function describeReply(reply: FunnelReply): string {
  const parts = [flowOptionLabel(reply.flow)];
  if (reply.variant) parts.push(variantOptionLabel(reply.variant));
  parts.push(`${formatDay(reply.from)} a ${formatDay(reply.to)}`);
  parts.push(`janela de ${formatCount(reply.window_days)} ${reply.window_days === 1 ? 'dia' : 'dias'}`);
  parts.push(`ordem ${(ORDER_OPTIONS.find((o) => o.value === reply.order)?.label ?? reply.order).toLowerCase()}`);
  if (reply.breakdown) parts.push(`por ${breakdownLabel(reply.breakdown).toLowerCase()}`);
  parts.push(`contando ${countNoun(reply.count)}`);
  return parts.join(' · ');
}

export function Results({ reply, previous }: { reply: FunnelReply; previous?: FunnelReply }) {
  const labelOf = (key: string) => groupLabel(key, reply.breakdown ?? '');
  const attempts = reply.groups.reduce((sum, g) => sum + g.attempts, 0);
  return (
    <div className="an-results">
      <div className="an-results__head">
        <p className="an-results__what">{describeReply(reply)}</p>
        <p className="sp-muted an-results__asof">Dados atualizados em {formatAsOf(reply.as_of)} (horário de Brasília).</p>
      </div>
      <ReadLag seconds={reply.read_lag_seconds} />
      {attempts === 0 ? (
        <div className="sp-card sp-empty">
          <h2 className="sp-subtitle">Nenhuma tentativa nesse período.</h2>
          <p className="sp-muted">Tente um período maior ou outro fluxo.</p>
        </div>
      ) : (
        <>
          <p className="an-total">
            <strong>{countOf(attempts, reply.count)}</strong> no período
            {reply.groups.length > 1 ? `, em ${formatCount(reply.groups.length)} grupos` : ''}.
          </p>
          <FunnelSection reply={reply} labelOf={labelOf} />
          <TablesSection reply={reply} labelOf={labelOf} />
          {previous && <ComparisonSection reply={reply} previous={previous} labelOf={labelOf} />}
          {reply.drivers && <DriversSection drivers={reply.drivers} />}
          <HistogramSection key={`${reply.flow}-${reply.variant ?? ''}-${reply.breakdown ?? ''}`} reply={reply} labelOf={labelOf} />
          <PerDaySection reply={reply} />
        </>
      )}
    </div>
  );
}
