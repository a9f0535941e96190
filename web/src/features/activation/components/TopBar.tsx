import { Link } from 'react-router';
import { ExaLogo } from '../../../components/Icons';

interface Props {
  partner: string | null;
  /** The partner's logo file (variants.ts); the name stands alone when absent. */
  logo?: string | null;
}

/** The template's top bar: our logo, and the partner's centred (beside ours on a phone, never over it). */
export function TopBar({ partner, logo = null }: Props) {
  return (
    <header className="activation-bar">
      <Link to="/" className="activation-bar__logo" aria-label="EXA, página inicial">
        <ExaLogo />
      </Link>
      {partner && (
        <span className="activation-bar__partner">
          <span className="activation-bar__with" aria-hidden="true">
            em parceria com
          </span>
          {logo ? (
            <img src={logo} alt={`Parceiro ${partner}`} aria-label={`Parceiro ${partner}`} height="32" />
          ) : (
            <span aria-label={`Parceiro ${partner}`}>{partner}</span>
          )}
        </span>
      )}
    </header>
  );
}
