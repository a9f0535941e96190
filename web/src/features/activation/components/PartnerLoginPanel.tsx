import { ActivationActor } from '../context';
import { PARTNER_LOGIN_TEXT } from '../texts';

/** Spec panel 6: the link to the broadband partner's authorization page. */
export function PartnerLoginPanel({ partner }: { partner: string }) {
  // The partner's OAuth authorization page; null while the server prepares it.
  const url = ActivationActor.useSelector((s) => s.context.partnerLoginUrl);
  return (
    <section className="activation-panel activation-panel--center" aria-labelledby="activation-heading">
      <h1 id="activation-heading" className="activation-heading">
        Ative a proteção com a sua conta {partner}
      </h1>
      {url ? (
        <a className="button button--primary activation-submit" href={url}>
          {PARTNER_LOGIN_TEXT}
        </a>
      ) : (
        <span className="button button--primary activation-submit" aria-disabled="true">
          {PARTNER_LOGIN_TEXT}
        </span>
      )}
    </section>
  );
}
