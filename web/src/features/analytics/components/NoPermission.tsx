import { Link } from 'react-router';
import { HOME_PATH } from '../../../lib/staff/session';

export const PERMISSION_TITLE = 'Sem permissão para ver os funis';

/** What the page shows a role the funnels are not for (or the server's 403). */
export function NoPermission({ message }: { message: string }) {
  return (
    <section className="sp-card" aria-labelledby="an-denied-title">
      <h1 id="an-denied-title" className="sp-title">
        {PERMISSION_TITLE}
      </h1>
      <div className="sp-alert sp-alert--error an-denied" role="alert">
        <p>{message}</p>
      </div>
      <p>
        Os funis de conversão são para analistas e para a administração. Para buscar as tentativas de um cliente, use a{' '}
        <Link to={HOME_PATH}>busca do suporte</Link>.
      </p>
    </section>
  );
}
