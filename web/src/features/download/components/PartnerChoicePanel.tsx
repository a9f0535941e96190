import type { FormEvent } from 'react';
import { ErrorBanner } from '../../../components/flow/ErrorBanner';
import { LoadingButton } from '../../../components/flow/LoadingButton';
import { DownloadActor } from '../context';
import { busyLabelOf, isBusy } from '../selectors';
import { useDismissible } from './useDismissible';
import { TEXTS } from '../texts';
import defaultLogo from './default-partner.svg';

/** Several partner plans: the visitor picks one card, then 'Continuar'. */
export function PartnerChoicePanel() {
  const actor = DownloadActor.useActorRef();
  const partners = DownloadActor.useSelector((s) => s.context.partners);
  const refusal = DownloadActor.useSelector((s) => (s.context.field === 'partner' ? s.context.error : null));
  const chosen = DownloadActor.useSelector((s) => s.context.partner);
  const busy = DownloadActor.useSelector(isBusy);
  const busyLabel = DownloadActor.useSelector(busyLabelOf);
  const [shownRefusal, dismiss] = useDismissible(refusal, chosen ?? '');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    actor.send({ type: 'SUBMIT' });
  };

  return (
    <form className="dl-panel" onSubmit={submit} aria-labelledby="dl-partner-title">
      <h3 id="dl-partner-title" className="dl-panel__title">
        {TEXTS.partnerTitle}
      </h3>
      <fieldset className="dl-partners">
        <legend>{TEXTS.partnerText}</legend>
        {partners.map((partner) => (
          <label
            key={partner.id}
            className={`dl-partner${chosen === partner.id ? ' dl-partner--chosen' : ''}`}
          >
            <input
              type="radio"
              name="partner"
              value={partner.id}
              checked={chosen === partner.id}
              onChange={() => actor.send({ type: 'FIELD_CHANGED', field: 'partner', value: partner.id })}
            />
            <img
              className="dl-partner__logo"
              src={partner.logotype || defaultLogo}
              alt={TEXTS.partnerLogoAlt(partner.name)}
              width={96}
              height={48}
              onError={(event) => {
                // A broken partner image falls back to the default one.
                if (event.currentTarget.src !== new URL(defaultLogo, window.location.href).href) {
                  event.currentTarget.src = defaultLogo;
                }
              }}
            />
            <span className="dl-partner__name">{partner.name}</span>
          </label>
        ))}
      </fieldset>
      {shownRefusal && <ErrorBanner message={shownRefusal} onDismiss={dismiss} />}
      <LoadingButton busy={busy} busyLabel={busyLabel} disabled={chosen === null} className="dl-panel__action">
        {TEXTS.continue}
      </LoadingButton>
    </form>
  );
}
