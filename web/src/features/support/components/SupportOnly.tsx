import { Link } from 'react-router';
import { ANALYSIS_PATH } from '../../../lib/staff/session';

/** What a support page shows an analyst (the support API would answer 403 anyway). */
export function SupportOnly() {
  return (
    <section className="sp-card" aria-labelledby="sp-analyst-title">
      <h1 id="sp-analyst-title" className="sp-title">
        Este console é do suporte
      </h1>
      <p>
        Seu perfil é de analista: a busca de tentativas e os dados pessoais ficam restritos ao suporte e à
        administração. Os funis de conversão estão em <Link to={ANALYSIS_PATH}>Funis</Link>.
      </p>
    </section>
  );
}
