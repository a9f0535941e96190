import { Link } from 'react-router';
import { INCOMPLETE_LINK_HEADING, incompleteLinkText, INCOMPLETE_LINK_SUPPORT } from '../texts';

/**
 * The partner-portal page opened without a usable `?licenca=` (issue 29): the licence can only
 * come from the partner's link, so instead of a locked empty field the visitor learns the link
 * is incomplete and where to get the right one.
 */
export function IncompleteLinkPanel({ partner }: { partner: string }) {
  return (
    <section className="activation-panel" aria-labelledby="activation-heading">
      <h1 id="activation-heading" className="activation-heading">
        {INCOMPLETE_LINK_HEADING}
      </h1>
      <p className="activation-text">{incompleteLinkText(partner)}</p>
      <p className="activation-text">
        {INCOMPLETE_LINK_SUPPORT}{' '}
        <Link className="activation-link" to="/contato">
          Fale com a EXA
        </Link>
      </p>
    </section>
  );
}
