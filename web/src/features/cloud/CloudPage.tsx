import './cloud.css';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { usePageMeta } from '../../components/Seo';
import { SiteShell } from '../../components/SiteShell';
import { CloudCard } from './components/CloudCard';
import { CloudFaq } from './components/CloudFaq';
import { HelpPanel } from './components/HelpPanel';
import { SuccessModal } from './components/SuccessModal';
import { CloudActor } from './context';
import { cloudMachine, SUCCESS_REDIRECT } from './machine';
import type { CloudInput } from './machine';
import { isBusy, panelOf } from './selectors';
import { useProofOfWork } from '../../lib/attempts/useProofOfWork';
import { keptAttempt, useKeptAttempt } from '../../lib/attempts/resume';
import { CLOUD_FLOW } from './types';

/** Where this tab keeps the page's attempt. */
const PLACE = '/cloud/positivo';
import { CLOUD_ACTIVATED_STATE } from '../../lib/flows';

function CloudFlow({ onStartAgain }: { onStartAgain: (kept: CloudInput) => void }) {
  const actor = CloudActor.useActorRef();
  const panel = CloudActor.useSelector(panelOf);
  const busy = CloudActor.useSelector(isBusy);
  const error = CloudActor.useSelector((s) => s.context.error);
  const attemptId = CloudActor.useSelector((s) => s.context.attemptId);
  const settled = CloudActor.useSelector((s) => s.matches({ request: 'idle' }));
  // An active account is not resumed: the visitor went on to /cliente/hero, and coming back
  // here must not send them there again.
  useKeptAttempt(PLACE, attemptId, settled, panel === 'success' || panel === 'done', error);
  const [helpOpen, setHelpOpen] = useState(false);
  const modalShown = useCallback(() => actor.send({ type: 'MODAL_SHOWN' }), [actor]);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  const closeHelp = useCallback(() => setHelpOpen(false), []);

  return (
    <SiteShell>
      <meta name="robots" content="noindex" />
      <section className="cloud-page" aria-labelledby="cloud-activation-title">
        <div className="container cloud-page__grid">
          <CloudCard
            onHelp={openHelp}
            onStartAgain={() => {
              const { phone, serial } = actor.getSnapshot().context;
              onStartAgain({ phone, serial });
            }}
          />
          <aside className="cloud-aside" aria-label="Ajuda com o número de série">
            <h2>Onde está o número de série?</h2>
            <p>Na etiqueta embaixo do notebook ou atrás do computador, ao lado de "S/N".</p>
            <button type="button" className="button button--outline button--small" onClick={openHelp}>
              Ver exemplo da etiqueta
            </button>
          </aside>
        </div>
        <div className="container container--narrow">
          <CloudFaq />
        </div>
      </section>
      <HelpPanel open={helpOpen} onClose={closeHelp} />
      <LoadingOverlay visible={busy && panel !== 'success' && panel !== 'done'} label="Processando sua ativação" />
      {(panel === 'success' || panel === 'done') && <SuccessModal onShown={modalShown} />}
    </SiteShell>
  );
}

/** /cloud/positivo: activation of the cloud product by the computer's serial number. */
export default function CloudPage() {
  usePageMeta({
    title: 'Ativar número de série | EXA Cloud',
    description: 'Ative o EXA Cloud do seu computador com o número de série e o seu celular.',
    noindex: true,
  });
  useProofOfWork();
  const navigate = useNavigate();
  const [resume] = useState(() => keptAttempt(CLOUD_FLOW, PLACE));
  const machine = useMemo(
    () => cloudMachine.provide({ actions: { redirect: () => navigate(SUCCESS_REDIRECT, { state: CLOUD_ACTIVATED_STATE }) } }),
    [navigate],
  );
  // "Começar de novo" (codes refused for good): a new key gives a fresh machine and attempt.
  const [round, setRound] = useState<{ n: number; kept: CloudInput }>({ n: 0, kept: { phone: '', serial: '' } });
  return (
    <CloudActor.Provider
      key={round.n}
      logic={machine}
      // The first machine reads back the attempt this tab left; "Começar de novo" starts afresh.
      options={{ input: round.n === 0 ? { ...round.kept, resume } : round.kept }}
    >
      <CloudFlow onStartAgain={(kept) => setRound(({ n }) => ({ n: n + 1, kept }))} />
    </CloudActor.Provider>
  );
}
