// The panel the download machine is on. The page renders it live; the support console's replay
// renders it read-only from a folded snapshot (features/support/replay/).

import { CANCELLED_MESSAGE } from '../../../lib/attempts/cancelled';
import { DownloadActor } from '../context';
import { TEXTS } from '../texts';
import type { Panel } from '../types';
import { CodePanel } from './CodePanel';
import { DownloadDonePanel } from './DownloadDonePanel';
import { LicencesPanel } from './LicencesPanel';
import { PartnerChoicePanel } from './PartnerChoicePanel';
import { PhonePanel } from './PhonePanel';
import { ProblemPanel } from './ProblemPanel';

export function CurrentPanel({ panel, onChangeNumber }: { panel: Panel; onChangeNumber: () => void }) {
  // Support ended the attempt: whatever panel it was on, the visitor reads why (a reload starts
  // afresh: lib/attempts/resume.ts forgets a cancelled attempt).
  const cancelled = DownloadActor.useSelector((s) => s.context.error === CANCELLED_MESSAGE);
  if (cancelled) {
    return <ProblemPanel id="dl-cancelled" title={TEXTS.cancelledTitle} text={CANCELLED_MESSAGE} canRetry={false} />;
  }
  switch (panel) {
    case 'phone_entry':
      return <PhonePanel />;
    case 'code_entry':
      return <CodePanel onChangeNumber={onChangeNumber} />;
    case 'download_done':
      return <DownloadDonePanel />;
    case 'user_not_found':
      return <ProblemPanel id="dl-not-found" title={TEXTS.notFoundTitle} text={TEXTS.notFoundText} canRetry />;
    case 'download_error':
      return (
        <ProblemPanel id="dl-error" title={TEXTS.downloadErrorTitle} text={TEXTS.downloadErrorText} canRetry />
      );
    case 'partner_choice':
      return <PartnerChoicePanel />;
    case 'licences_in_use':
      return <LicencesPanel />;
    case 'plan_without_antivirus':
      return <ProblemPanel id="dl-plan" title={TEXTS.planTitle} text={TEXTS.planText} canRetry={false} />;
  }
}
