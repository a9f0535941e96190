import './download.css';
import { useMemo, useState } from 'react';
import { Navigate, useParams } from 'react-router';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { WaitingLine } from '../../components/flow/WaitingLine';
import { usePageMeta } from '../../components/Seo';
import { SiteShell } from '../../components/SiteShell';
import { detectBrowser } from './browser';
import { CurrentPanel } from './components/CurrentPanel';
import { Snackbar } from './components/Snackbar';
import { StepIndicator } from './components/StepIndicator';
import { DownloadActor } from './context';
import { isBusy, panelOf, stepOf } from './selectors';
import { TEXTS } from './texts';
import { isDesktopOs, type DesktopOs } from './rules';
import { useProofOfWork } from '../../lib/attempts/useProofOfWork';
import { keptAttempt, useKeptAttempt } from '../../lib/attempts/resume';
import { DOWNLOAD_FLOW } from './types';

/** Where this tab keeps the page's attempt: one per operating system's page. */
const placeOf = (os: DesktopOs) => `/av-desktop/download/${os}`;

function DownloadFlow({ os, onStartOver }: { os: DesktopOs; onStartOver: (phone: string) => void }) {
  const actor = DownloadActor.useActorRef();
  const onChangeNumber = () => onStartOver(actor.getSnapshot().context.phone);
  usePageMeta({ title: TEXTS.pageTitle, description: TEXTS.pageDescription, noindex: true });
  const attemptId = DownloadActor.useSelector((s) => s.context.attemptId);
  const settled = DownloadActor.useSelector((s) => s.matches({ request: 'idle' }));
  const message = DownloadActor.useSelector((s) => s.context.snackbar?.message ?? s.context.error);
  useKeptAttempt(placeOf(os), attemptId, settled, false, message);
  const panel = DownloadActor.useSelector(panelOf);
  const step = DownloadActor.useSelector(stepOf);
  const busy = DownloadActor.useSelector(isBusy);
  const queueUntil = DownloadActor.useSelector((s) => s.context.queueUntil);
  const queueAhead = DownloadActor.useSelector((s) => s.context.queueAhead ?? null);

  return (
    <SiteShell>
      <div className="dl-page container container--narrow" data-panel={panel}>
        <h1 className="dl-page__title">{TEXTS.pageTitle}</h1>
        <h2 className="dl-page__heading">{TEXTS.heading}</h2>
        <aside className="dl-who" aria-labelledby="dl-who-title">
          <h3 id="dl-who-title">{TEXTS.whoTitle}</h3>
          <p>{TEXTS.whoText}</p>
          <p>{TEXTS.forComputer(os)}</p>
        </aside>
        <StepIndicator current={step} />
        <div className="dl-page__panel">
          {queueUntil !== null && <WaitingLine until={queueUntil} ahead={queueAhead} />}
          <CurrentPanel panel={panel} onChangeNumber={onChangeNumber} />
        </div>
      </div>
      <LoadingOverlay visible={busy} label={TEXTS.loading} />
      <Snackbar />
    </SiteShell>
  );
}

/** `/av-desktop/download/{os}`: win_pc or mac; anything else replaces history with /seguranca. */
export default function DownloadPage() {
  const { os } = useParams();
  // "Alterar número" starts over with a fresh machine and a new attempt.
  const [round, setRound] = useState<{ n: number; phone?: string }>({ n: 0 });
  useProofOfWork();
  const browser = useMemo(() => detectBrowser(navigator.userAgent), []);
  if (!isDesktopOs(os)) return <Navigate to="/seguranca" replace />;
  // A new os is a new attempt: the key gives it a fresh machine, which starts it with its input,
  // or on arrival reads back the attempt this tab left on the page ("Alterar número" does not).
  const resume = round.n === 0 ? keptAttempt(DOWNLOAD_FLOW, placeOf(os)) : null;
  return (
    <DownloadActor.Provider key={`${os}#${round.n}`} options={{ input: { os, browser, resume, phone: round.phone } }}>
      <DownloadFlow os={os} onStartOver={(phone) => setRound(({ n }) => ({ n: n + 1, phone }))} />
    </DownloadActor.Provider>
  );
}
