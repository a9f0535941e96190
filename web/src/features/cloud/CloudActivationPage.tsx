import './cloud.css';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { openChatbot } from '../../components/Chatbot';
import { ErrorBanner } from '../../components/flow/ErrorBanner';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { usePageMeta } from '../../components/Seo';
import { SiteShell } from '../../components/SiteShell';
import { CloudFaq } from './components/CloudFaq';
import { CodeForm } from './components/CodeForm';
import { DetailsForm } from './components/DetailsForm';
import { HelpPanel } from './components/HelpPanel';
import { SuccessModal } from './components/SuccessModal';
import { CloudActor } from './context';
import { cloudMachine, SUCCESS_REDIRECT } from './machine';
import { isBusy, panelOf } from './selectors';
import { useProofOfWork } from '../../lib/attempts/useProofOfWork';

const STEPS = ['Seus dados', 'Código SMS', 'Ativação'] as const;

function Stepper({ current }: { current: number }) {
  return (
    <ol className="cloud-steps" aria-label="Etapas da ativação">
      {STEPS.map((label, index) => (
        <li
          key={label}
          className={`cloud-steps__item${index === current ? ' is-current' : ''}${index < current ? ' is-done' : ''}`}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="cloud-steps__number" aria-hidden="true">
            {index + 1}
          </span>
          {label}
        </li>
      ))}
    </ol>
  );
}

function CloudActivation() {
  const actor = CloudActor.useActorRef();
  const panel = CloudActor.useSelector(panelOf);
  const busy = CloudActor.useSelector(isBusy);
  const error = CloudActor.useSelector((s) => s.context.error);
  const [helpOpen, setHelpOpen] = useState(false);
  const openHelp = useCallback(() => setHelpOpen(true), []);
  const closeHelp = useCallback(() => setHelpOpen(false), []);

  const step = panel === 'details' ? 0 : panel === 'code' ? 1 : 2;

  return (
    <SiteShell>
      <meta name="robots" content="noindex" />
      <section className="cloud-page" aria-labelledby="cloud-activation-title">
        <div className="container cloud-page__grid">
          <div className="cloud-card">
            <h1 id="cloud-activation-title">Ativar número de série</h1>
            <p className="cloud-card__lead">
              Ative o EXA Cloud do seu computador em poucos passos: informe seu celular e o número de série, e confirme
              com o código que enviaremos por SMS.
            </p>
            <Stepper current={step} />
            {error && <ErrorBanner message={error} onDismiss={() => actor.send({ type: 'DISMISS' })} />}
            {panel === 'details' && <DetailsForm onHelp={openHelp} />}
            {panel === 'code' && <CodeForm />}
            <button type="button" className="cloud-link cloud-card__help" onClick={openChatbot}>
              Precisa de ajuda?
            </button>
          </div>
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
      {(panel === 'success' || panel === 'done') && <SuccessModal />}
    </SiteShell>
  );
}

/** /cloud/positivo: activation of the cloud product by the computer's serial number. */
export default function CloudActivationPage() {
  usePageMeta({
    title: 'Ativar número de série | EXA Cloud',
    description: 'Ative o EXA Cloud do seu computador com o número de série e o seu celular.',
    noindex: true,
  });
  useProofOfWork();
  const navigate = useNavigate();
  const machine = useMemo(
    () => cloudMachine.provide({ actions: { redirect: () => navigate(SUCCESS_REDIRECT) } }),
    [navigate],
  );
  return (
    <CloudActor.Provider logic={machine}>
      <CloudActivation />
    </CloudActor.Provider>
  );
}
