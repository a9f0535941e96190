import { useId } from 'react';
import type { FunnelReply } from '../api';
import { compareReplies, type StepChange } from '../compare';
import { attemptsCount, formatDay, formatDurationMs, formatPercent } from '../format';

const POINTS = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1, signDisplay: 'exceptZero' });

/** "+12,5 p.p.", "−3 p.p.", "0 p.p."; "—" without a figure. */
export function formatPoints(points: number | null): string {
  return points === null ? '—' : `${POINTS.format(points)} p.p.`;
}

/** "2,5 s mais rápido" / "1 min mais lento" / "igual"; "—" without a figure. */
export function formatMedianChange(deltaMs: number | null): string {
  if (deltaMs === null) return '—';
  if (deltaMs === 0) return 'igual';
  return `${formatDurationMs(Math.abs(deltaMs))} ${deltaMs < 0 ? 'mais rápido' : 'mais lento'}`;
}

function ChangeTable({ caption, steps }: { caption: string; steps: StepChange[] }) {
  return (
    <div className="sp-table-wrap an-table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="sp-table an-table">
        <caption className="an-table__caption">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Etapa</th>
            <th scope="col" className="an-num">
              % da primeira (antes)
            </th>
            <th scope="col" className="an-num">
              % da primeira (agora)
            </th>
            <th scope="col" className="an-num">
              Variação
            </th>
            <th scope="col" className="an-num">
              Mediana (antes)
            </th>
            <th scope="col" className="an-num">
              Mediana (agora)
            </th>
            <th scope="col" className="an-num">
              Variação do tempo
            </th>
          </tr>
        </thead>
        <tbody>
          {steps.map((step) => (
            <tr key={step.key}>
              <th scope="row" className="an-table__step">
                {step.label}
              </th>
              <td className="an-num sp-num">{formatPercent(step.before)}</td>
              <td className="an-num sp-num">{formatPercent(step.now)}</td>
              <td className="an-num sp-num sp-nowrap">{formatPoints(step.points)}</td>
              <td className="an-num sp-num sp-nowrap">{formatDurationMs(step.medianBefore)}</td>
              <td className="an-num sp-num sp-nowrap">{formatDurationMs(step.medianNow)}</td>
              <td className="an-num sp-num sp-nowrap">{formatMedianChange(step.medianDelta)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The same question over the period before, step by step, with the change. */
export function ComparisonSection({
  reply,
  previous,
  labelOf,
}: {
  reply: FunnelReply;
  previous: FunnelReply;
  labelOf: (key: string) => string;
}) {
  const titleId = useId();
  const groups = compareReplies(reply, previous);
  return (
    <section className="an-section an-compare" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Comparado com o período anterior
      </h2>
      <p className="sp-muted">
        De {formatDay(previous.from)} a {formatDay(previous.to)}, o mesmo número de dias logo antes do período
        escolhido. A variação é em pontos percentuais (p.p.) da conversão desde a primeira etapa.
      </p>
      {groups.map((group) => (
        <ChangeTable
          key={group.key}
          caption={`${labelOf(group.key)} · antes: ${attemptsCount(group.attemptsBefore)}`}
          steps={group.steps}
        />
      ))}
    </section>
  );
}
