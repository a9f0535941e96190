// The attempt page's actions (issue 27): retry now the step waiting on its back-off, and cancel
// the attempt (the runner stops, the visitor's page says so). Each asks for a reason, audited in
// the staff trail; the server decides whether the attempt allows it and says why not.

import { useState } from 'react';
import { cancelAttempt, retryStep, type ActionReply, type Detail } from '../api';
import { ReasonDialog } from './ReasonDialog';

type Action = 'retry' | 'cancel';

interface Props {
  detail: Detail;
  onDone: (reply: ActionReply, what: string) => void;
  onUnauthorized: () => void;
}

export function AttemptActions({ detail, onDone, onUnauthorized }: Props) {
  const [open, setOpen] = useState<Action | null>(null);
  const ended = detail.outcome.kind === 'completed' || detail.outcome.kind === 'cancelled';
  if (ended) return null;
  return (
    <section className="sp-card sp-actions" aria-labelledby="sp-actions-title">
      <h2 id="sp-actions-title" className="sp-subtitle">
        Ações
      </h2>
      <p className="sp-muted">
        “Tentar agora” chama de novo, sem esperar, a etapa que aguarda uma nova tentativa. “Encerrar” interrompe a
        tentativa: o visitante vê que ela foi encerrada pelo atendimento e pode começar de novo.
      </p>
      <div className="sp-actions__buttons">
        <button type="button" className="sp-button sp-button--secondary" onClick={() => setOpen('retry')}>
          Tentar agora
        </button>
        <button type="button" className="sp-button sp-button--danger" onClick={() => setOpen('cancel')}>
          Encerrar tentativa
        </button>
      </div>
      {open === 'retry' && (
        <ReasonDialog
          title="Tentar a etapa agora"
          confirm="Tentar agora"
          busyLabel="Enviando…"
          act={async (reason) => {
            const reply = await retryStep(detail.id, reason);
            setOpen(null);
            onDone(reply, 'A etapa será tentada de novo agora.');
          }}
          onUnauthorized={onUnauthorized}
          onClose={() => setOpen(null)}
        >
          <p>A etapa que está esperando para ser repetida é chamada de novo imediatamente, com a mesma identificação.</p>
        </ReasonDialog>
      )}
      {open === 'cancel' && (
        <ReasonDialog
          title="Encerrar a tentativa"
          confirm="Encerrar tentativa"
          busyLabel="Encerrando…"
          tone="danger"
          act={async (reason) => {
            const reply = await cancelAttempt(detail.id, reason);
            setOpen(null);
            onDone(reply, 'Tentativa encerrada. O visitante verá que ela foi encerrada pelo atendimento.');
          }}
          onUnauthorized={onUnauthorized}
          onClose={() => setOpen(null)}
        >
          <p>
            Nenhuma etapa será mais executada e o visitante verá: “Esta tentativa foi encerrada pelo nosso atendimento.
            Comece de novo quando quiser.” Não dá para desfazer.
          </p>
        </ReasonDialog>
      )}
    </section>
  );
}
