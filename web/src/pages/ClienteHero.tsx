import '../features/cloud/cloud.css';
import { ExternalLink } from '../components/ExternalLink';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { Link, useLocation } from 'react-router';
import { EXTERNAL } from '../content/company';

function cameFromActivation(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as { cloudActivated?: unknown }).cloudActivated === true;
}

/**
 * /cliente/hero: the customer area where the cloud serial activation ends. Only a visitor the
 * activation sent here is told the account is active (issue 29); anyone opening the address
 * directly gets the way into the cloud app and to the activation.
 */
export default function ClienteHero() {
  const location = useLocation();
  const activated = cameFromActivation(location.state);
  usePageMeta({
    title: activated ? 'Sua conta EXA Cloud está ativa' : 'Área do cliente EXA Cloud',
    description: 'Acesse o EXA Cloud para guardar fotos, vídeos e arquivos, ou ative o número de série do seu computador.',
    noindex: true,
  });
  if (!activated) {
    return (
      <SiteShell>
        <section className="cliente-hero" aria-labelledby="cliente-hero-title">
          <div className="container container--narrow">
            <div className="cliente-hero__card">
              <h1 id="cliente-hero-title">Área do cliente EXA Cloud</h1>
              <p>
                Entre no EXA Cloud com o número de celular da sua conta para guardar e sincronizar suas fotos, vídeos,
                músicas, contatos e arquivos.
              </p>
              <ExternalLink href={EXTERNAL.cloudApp} className="button button--primary">
                Acessar meu EXA Cloud
              </ExternalLink>
              <p>
                Comprou um computador com o EXA Cloud?{' '}
                <Link to="/cloud/positivo">Ative o número de série</Link>
              </p>
            </div>
          </div>
        </section>
      </SiteShell>
    );
  }
  return (
    <SiteShell>
      <section className="cliente-hero" aria-labelledby="cliente-hero-title">
        <div className="container container--narrow">
          <div className="cliente-hero__card">
            <svg width="72" height="72" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
              <circle cx="32" cy="32" r="30" fill="#19c3a6" />
              <path d="M19 33l9 9 17-19" fill="none" stroke="#0b1f4b" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
            <h1 id="cliente-hero-title">Sua conta EXA Cloud está ativa!</h1>
            <p>
              Pronto: o número de série do seu computador foi ativado. Entre no EXA Cloud com o mesmo número de celular
              para guardar e sincronizar suas fotos, vídeos, músicas, contatos e arquivos.
            </p>
            <ExternalLink href={EXTERNAL.cloudApp} className="button button--primary">
              Acessar meu EXA Cloud
            </ExternalLink>
          </div>
        </div>
      </section>
    </SiteShell>
  );
}
