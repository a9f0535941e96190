// The cloud page's card: its title, the step indicator, the waiting line, the message and the
// panel the machine is on. The page renders it live; the support console's replay renders it
// read-only from a folded snapshot (features/support/replay/), so both show the same panels.

import { openChatbot } from '../../../components/Chatbot';
import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { WaitingLine } from '../../../components/flow/WaitingLine';
import { CloudActor } from '../context';
import { panelOf } from '../selectors';
import { CodePanel } from './CodePanel';
import { DetailsPanel } from './DetailsPanel';
import { StepIndicator } from './StepIndicator';

export function CloudCard({ onHelp, onStartAgain }: { onHelp: () => void; onStartAgain: () => void }) {
  const actor = CloudActor.useActorRef();
  const panel = CloudActor.useSelector(panelOf);
  const error = CloudActor.useSelector((s) => s.context.error);
  const queueUntil = CloudActor.useSelector((s) => s.context.queueUntil);
  const queueAhead = CloudActor.useSelector((s) => s.context.queueAhead ?? null);
  const step = panel === 'details' ? 0 : panel === 'code' ? 1 : 2;
  return (
    <div className="cloud-card">
      <h1 id="cloud-activation-title">Ativar número de série</h1>
      <p className="cloud-card__lead">
        Ative o EXA Cloud do seu computador em poucos passos: informe seu celular e o número de série, e confirme com o
        código que enviaremos por SMS.
      </p>
      <StepIndicator current={step} />
      {queueUntil !== null && <WaitingLine until={queueUntil} ahead={queueAhead} />}
      {error && <ErrorBanner message={error} onDismiss={() => actor.send({ type: 'DISMISS' })} />}
      {panel === 'details' && <DetailsPanel onHelp={onHelp} />}
      {panel === 'code' && <CodePanel onStartAgain={onStartAgain} />}
      <button type="button" className="cloud-link cloud-card__help" onClick={openChatbot}>
        Precisa de ajuda?
      </button>
    </div>
  );
}
