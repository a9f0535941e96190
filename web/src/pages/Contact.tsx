import { ExternalLink } from '../components/ExternalLink';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { COMPANY, EXTERNAL } from '../content/company';

export default function Contact() {
  usePageMeta({
    title: 'Contato',
    description: 'Fale com a EXA: endereço em São Paulo, e-mail de contato, e-mail para a imprensa e canal de denúncias.',
  });

  return (
    <SiteShell>
      <section className="page-hero" aria-labelledby="contact-title">
        <div className="container">
          <h1 id="contact-title">Contato</h1>
          <p className="hero__lead">Estamos aqui para ajudar. Escolha o canal certo para o seu assunto.</p>
        </div>
      </section>
      <section className="section" aria-label="Canais de contato">
        <div className="container contact-grid">
          <div className="card">
            <h2>Endereço</h2>
            <address>
              {COMPANY.legalName}
              <br />
              {COMPANY.address.street}
              <br />
              {COMPANY.address.district}, {COMPANY.address.city}
              <br />
              {COMPANY.address.zip}
            </address>
          </div>
          <div className="card">
            <h2>Fale com a gente</h2>
            <p>Dúvidas, sugestões e suporte aos produtos:</p>
            <p>
              <a href={`mailto:${COMPANY.contactEmail}`} className="strong-link">
                {COMPANY.contactEmail}
              </a>
            </p>
          </div>
          <div className="card">
            <h2>Imprensa</h2>
            <p>Jornalistas e assessorias:</p>
            <p>
              <a href={`mailto:${COMPANY.pressEmail}`} className="strong-link">
                {COMPANY.pressEmail}
              </a>
            </p>
          </div>
          <div className="card">
            <h2>Canal de denúncias</h2>
            <p>
              Relate, com sigilo e sem se identificar, condutas que violem nosso código de ética. O canal é operado por uma
              empresa independente.
            </p>
            <ExternalLink href={EXTERNAL.whistleblower} className="button button--primary">
              Acessar o canal de denúncias
            </ExternalLink>
          </div>
        </div>
        <div className="container seal-row">
          <img src="/img/seal-empresa-etica.svg" width="120" height="120" alt="Selo Empresa Ética certificada" />
          <p>
            A EXA é certificada como <strong>Empresa Ética</strong>: seguimos um programa de integridade com auditoria
            independente.
          </p>
        </div>
      </section>
    </SiteShell>
  );
}
