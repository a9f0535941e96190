import type { FunnelStep } from '../api';
import { formatCount } from '../format';

/** The step's most frequent refusal messages; the rest counted in one line. */
const TOP_REFUSALS = 3;

export function Refusals({ step }: { step: FunnelStep }) {
  if (step.refusals.length === 0) return <>—</>;
  const sorted = [...step.refusals].sort((a, b) => b.count - a.count);
  const rest = sorted.slice(TOP_REFUSALS);
  const restCount = rest.reduce((sum, r) => sum + r.count, 0);
  return (
    <ul className="an-refusals">
      {sorted.slice(0, TOP_REFUSALS).map((refusal) => (
        <li key={refusal.message}>
          <span>{refusal.message}</span> <span className="an-refusals__count sp-num">({formatCount(refusal.count)})</span>
        </li>
      ))}
      {rest.length > 0 && (
        <li className="sp-muted">
          e mais {rest.length === 1 ? '1 mensagem' : `${formatCount(rest.length)} mensagens`} ({formatCount(restCount)})
        </li>
      )}
    </ul>
  );
}
