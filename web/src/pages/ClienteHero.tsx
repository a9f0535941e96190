import '../features/cloud/cloud.css';
import { ExternalLink } from '../components/ExternalLink';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { EXTERNAL } from '../content/company';

/** /cliente/hero: where the cloud serial activation ends. */
export default function ClienteHero() {
  usePageMeta({
    title: 'Sua conta EXA Cloud está ativa',
    description: 'Sua conta EXA Cloud foi ativada. Acesse o EXA Cloud para guardar fotos, vídeos e arquivos.',
    noindex: true,
  });
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
