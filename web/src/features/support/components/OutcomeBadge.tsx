import type { Outcome } from '../api';
import { outcomeLabel } from '../labels';

/** The outcome as a coloured badge; a refusal also shows the message the visitor read. */
export function OutcomeBadge({ outcome }: { outcome: Outcome }) {
  return (
    <span className="sp-outcome">
      <span className={`sp-badge sp-badge--${outcome.kind}`} data-outcome={outcome.kind}>
        {outcomeLabel(outcome)}
      </span>
      {outcome.kind === 'refused' && outcome.message && (
        <span className="sp-outcome__message">
          <span className="sp-visually-hidden">Mensagem ao visitante: </span>“{outcome.message}”
        </span>
      )}
    </span>
  );
}
