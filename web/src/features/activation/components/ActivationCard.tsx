// The activation page's card: the waiting line, the message and the panel the machine is on.
// The page renders it live; the support console's replay renders it read-only from a folded
// snapshot (features/support/replay/), so both show the same panels.

import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { WaitingLine } from '../../../components/flow/WaitingLine';
import { ActivationActor } from '../context';
import { licenceFromLink, panelOf } from '../selectors';
import type { Platform } from '../types';
import type { VariantConfig } from '../variants';
import { CodeValidationPanel } from './CodeValidationPanel';
import { EmailPanel } from './EmailPanel';
import { IncompleteLinkPanel } from './IncompleteLinkPanel';
import { PartnerLoginPanel } from './PartnerLoginPanel';
import { ProductListPanel } from './ProductListPanel';
import { RedirectStorePanel } from './RedirectStorePanel';
import { SendCodePanel } from './SendCodePanel';

export function ActivationCard({
  config,
  platform,
  onChangeNumber,
}: {
  config: VariantConfig;
  platform: Platform;
  onChangeNumber: () => void;
}) {
  const actor = ActivationActor.useActorRef();
  const panel = ActivationActor.useSelector(panelOf);
  const error = ActivationActor.useSelector((s) => s.context.error);
  const queueUntil = ActivationActor.useSelector((s) => s.context.queueUntil);
  const queueAhead = ActivationActor.useSelector((s) => s.context.queueAhead ?? null);
  const linkIncomplete = ActivationActor.useSelector((s) => config.disabledInputSerial && !licenceFromLink(s));
  return (
    <div className="activation-card">
      {queueUntil !== null && <WaitingLine until={queueUntil} ahead={queueAhead} />}
      {error && <ErrorBanner message={error} onDismiss={() => actor.send({ type: 'DISMISS' })} />}
      {(panel === 'send_code' || panel === 'starting') &&
        (linkIncomplete ? <IncompleteLinkPanel partner={config.partner ?? ''} /> : <SendCodePanel config={config} />)}
      {panel === 'email' && <EmailPanel heading={config.headTitle} />}
      {panel === 'code_validation' && <CodeValidationPanel onChangeNumber={onChangeNumber} />}
      {panel === 'product_list' && <ProductListPanel platform={platform} />}
      {panel === 'redirect_store' && <RedirectStorePanel platform={platform} />}
      {panel === 'partner_login' && <PartnerLoginPanel partner={config.partner ?? ''} />}
    </div>
  );
}
