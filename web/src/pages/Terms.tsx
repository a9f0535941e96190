import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { TERMS_PATHS } from '../content/company';
import { termsSections, TERMS_UPDATED_AT } from '../content/terms';
import { useIdentity } from '../components/usePublicConfig';

/** The one terms-and-privacy screen behind /assets/termos-de-uso.htm and /assets/politica-de-privacidade.htm. */
export default function Terms() {
  usePageMeta({
    title: 'Termos de uso e Privacidade',
    description: 'Termos de uso dos serviços da EXA e política de privacidade: dados tratados, compartilhamento e seus direitos pela LGPD.',
  });

  const identity = useIdentity();

  return (
    <SiteShell>
      <section className="page-hero" aria-labelledby="terms-title">
        <div className="container">
          <h1 id="terms-title">Termos de uso e Privacidade</h1>
          <p className="hero__lead">Última atualização: {TERMS_UPDATED_AT}.</p>
        </div>
      </section>
      <article className="section">
        <div className="container container--narrow terms">
          <p>
            <a href={TERMS_PATHS.pdf} target="_blank" rel="noopener" className="strong-link">
              Baixar os termos de uso e a política de privacidade em PDF
            </a>
          </p>
          {termsSections(identity).map((section) => (
            <section key={section.title} aria-labelledby={`terms-${section.title.slice(0, 1)}`}>
              <h2 id={`terms-${section.title.slice(0, 1)}`}>{section.title}</h2>
              {section.paragraphs.map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
            </section>
          ))}
        </div>
      </article>
    </SiteShell>
  );
}
