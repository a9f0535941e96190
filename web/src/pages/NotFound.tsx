import { Link } from 'react-router';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';

/** Any address outside the route table: the server answers 404 and the app says so in the site's layout. */
export default function NotFound() {
  usePageMeta({
    title: 'Página não encontrada',
    description: 'O endereço que você abriu não existe no site da EXA.',
    noindex: true,
  });

  return (
    <SiteShell>
      <section className="section not-found" aria-labelledby="not-found-title">
        <div className="container container--narrow not-found__inner">
          <img src="/img/not-found.svg" width="160" height="120" alt="" />
          <p className="eyebrow">Erro 404</p>
          <h1 id="not-found-title">Página não encontrada</h1>
          <p>
            O endereço que você abriu não existe ou mudou de lugar. Confira se foi digitado corretamente ou siga por um
            dos caminhos abaixo.
          </p>
          <div className="not-found__actions">
            <Link to="/" className="button button--primary">
              Voltar para o início
            </Link>
            <Link to="/faq" className="button button--outline">
              Perguntas frequentes
            </Link>
            <Link to="/contato" className="button button--outline">
              Falar com a EXA
            </Link>
          </div>
        </div>
      </section>
    </SiteShell>
  );
}
