import { Link } from 'react-router';
import { ExaLogo } from '../../../components/Icons';

/** The template's top bar: our logo, and the partner's centred. */
export function TopBar({ partner }: { partner: string | null }) {
  return (
    <header className="activation-bar">
      <Link to="/" className="activation-bar__logo" aria-label="EXA, página inicial">
        <ExaLogo />
      </Link>
      {partner && (
        <span className="activation-bar__partner" aria-label={`Parceiro ${partner}`}>
          {partner}
        </span>
      )}
    </header>
  );
}
