import { openChatbot } from '../components/Chatbot';
import { ExternalLink } from '../components/ExternalLink';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { useIdentity } from '../components/usePublicConfig';
import { EXTERNAL } from '../content/company';
import { ETHICS_SEAL_ALT, ETHICS_SEAL_SLOT, telHref, whatsappHref } from '../content/identity';

export default function Contact() {
  usePageMeta({
    title: 'Contato',
    description:
      'Fale com a EXA: chat de atendimento, e-mail de contato, e-mail para a imprensa, endereço em São Paulo e canal de denúncias.',
  });
  const identity = useIdentity();

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
          <div className="card contact-card--main">
            <h2>Atendimento</h2>
            <p>O jeito mais rápido de resolver: converse com a nossa assistente virtual, todos os dias.</p>
            <button type="button" className="button button--primary" onClick={openChatbot}>
              Conversar no chat
            </button>
            {(identity.supportPhone || identity.supportWhatsapp) && (
              <ul className="contact-lines">
                {identity.supportPhone && (
                  <li>
                    Telefone:{' '}
                    <a href={telHref(identity.supportPhone)} className="strong-link">
                      {identity.supportPhone}
                    </a>
                  </li>
                )}
                {identity.supportWhatsapp && (
                  <li>
                    WhatsApp:{' '}
                    <ExternalLink href={whatsappHref(identity.supportWhatsapp)} className="strong-link">
                      {identity.supportWhatsapp}
                    </ExternalLink>
                  </li>
                )}
              </ul>
            )}
          </div>
          <div className="card">
            <h2>Fale com a gente</h2>
            <p>Dúvidas, sugestões e suporte aos produtos:</p>
            <p>
              <a href={`mailto:${identity.contactEmail}`} className="strong-link">
                {identity.contactEmail}
              </a>
            </p>
          </div>
          <div className="card">
            <h2>Imprensa</h2>
            <p>Jornalistas e assessorias:</p>
            <p>
              <a href={`mailto:${identity.pressEmail}`} className="strong-link">
                {identity.pressEmail}
              </a>
            </p>
          </div>
          <div className="card">
            <h2>Endereço</h2>
            <address>
              {identity.legalName}
              {identity.address.map((line) => (
                <span key={line}>
                  <br />
                  {line}
                </span>
              ))}
              <br />
              CNPJ {identity.cnpj}
            </address>
          </div>
          <div className="card">
            <h2>Canal de denúncias</h2>
            <p>
              Relate, com sigilo e sem se identificar, condutas que violem nosso código de ética. O canal é operado por uma
              empresa independente.
            </p>
            <ExternalLink href={EXTERNAL.whistleblower} className="button button--outline">
              Acessar o canal de denúncias
            </ExternalLink>
          </div>
        </div>
        <div className="container seal-row">
          <img src={identity.ethicsSealUrl ?? ETHICS_SEAL_SLOT} width="120" height="120" alt={ETHICS_SEAL_ALT} />
          <p>
            A EXA é certificada como <strong>Empresa Ética</strong>: seguimos um programa de integridade com auditoria
            independente.
          </p>
        </div>
      </section>
    </SiteShell>
  );
}
