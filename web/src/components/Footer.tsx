import { Link } from 'react-router';
import { EXTERNAL, TERMS_PATHS } from '../content/company';
import { seals } from '../content/identity';
import { LINKED_DOCUMENTS } from '../content/documents';
import { SOCIAL_LINKS } from '../content/menu';
import { ExternalLink } from './ExternalLink';
import { ExaLogo, SocialIcon } from './Icons';
import { useHydrated } from './useHydrated';
import { useIdentity, usePublicConfig } from './usePublicConfig';

const FOOTER_DOCUMENT_LABELS: Record<string, string> = {
  'igualdade-salarial': 'Relatório de igualdade salarial',
  'nc-exa': 'Nota de compromisso EXA',
  'anuncio-encerramento': 'Anúncio de encerramento do Hero',
};

export function Footer() {
  const config = usePublicConfig();
  const identity = useIdentity();
  // The prerendered HTML has the build's year; after hydration, the visitor's.
  const year = useHydrated() ? new Date().getFullYear() : __BUILD_YEAR__;

  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <ExaLogo inverted />
          <p>Proteção digital para você e sua família, no celular, no computador e na nuvem.</p>
          <ul className="footer-social" aria-label="Redes sociais">
            {SOCIAL_LINKS.map((social) => (
              <li key={social.name}>
                <ExternalLink href={social.url} className="icon-button" aria-label={`EXA no ${social.name}`}>
                  <SocialIcon name={social.icon} />
                </ExternalLink>
              </li>
            ))}
          </ul>
        </div>
        <nav className="footer-links" aria-label="Transparência">
          <h2 className="footer-title">Transparência</h2>
          <ul>
            {LINKED_DOCUMENTS.map((doc) => (
              <li key={doc.key}>
                <Link to={`/links?q=${doc.key}`}>{FOOTER_DOCUMENT_LABELS[doc.key] ?? doc.title}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav className="footer-links" aria-label="Privacidade e ética">
          <h2 className="footer-title">Privacidade e ética</h2>
          <ul>
            <li>
              <Link to={TERMS_PATHS.terms}>Termos de uso e privacidade</Link>
            </li>
            <li>
              <ExternalLink href={EXTERNAL.privacyPortal}>Portal de privacidade</ExternalLink>
            </li>
            <li>
              <ExternalLink href={EXTERNAL.codeOfEthics}>Código de ética</ExternalLink>
            </li>
            {config?.sandbox && config.smsInboxUrl && (
              <li>
                <ExternalLink href={config.smsInboxUrl}>Caixa de SMS do sandbox</ExternalLink>
              </li>
            )}
          </ul>
        </nav>
        <div className="footer-seals">
          <h2 className="footer-title">Selo</h2>
          <ul>
            {seals(identity).map((seal) => (
              <li key={seal.src}>
                <img src={seal.src} alt={seal.alt} width="72" height="72" loading="lazy" />
              </li>
            ))}
          </ul>
        </div>
      </div>
      <div className="footer-bottom">
        <div className="container footer-bottom__inner">
          <p>
            © {year} {identity.legalName} · CNPJ {identity.cnpj} · Todos os direitos reservados.
          </p>
          {config?.sandbox && <DemoMark />}
        </div>
      </div>
    </footer>
  );
}

/** Said on every page when the upstreams are the sandbox: nothing here is a real account. */
export function DemoMark() {
  return (
    <p className="demo-mark" data-testid="demo-mark">
      Ambiente de demonstração: códigos, assinaturas e mensagens são simulados.
    </p>
  );
}
