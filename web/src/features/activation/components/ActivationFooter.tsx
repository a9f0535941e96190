import { DemoMark } from '../../../components/Footer';
import { useIdentity, usePublicConfig } from '../../../components/usePublicConfig';
import { TERMS_PATHS } from '../../../content/company';

/**
 * The template's slim footer: who runs the page, privacy, terms and help. The links open in a
 * new tab so a half-finished activation is never thrown away.
 */
export function ActivationFooter() {
  const config = usePublicConfig();
  const identity = useIdentity();
  return (
    <footer className="activation-footer">
      <nav aria-label="Ajuda e privacidade">
        <ul>
          <li>
            <a href={TERMS_PATHS.privacy} target="_blank" rel="noopener">
              Privacidade
            </a>
          </li>
          <li>
            <a href={TERMS_PATHS.terms} target="_blank" rel="noopener">
              Termos de uso
            </a>
          </li>
          <li>
            <a href="/contato" target="_blank" rel="noopener">
              Ajuda
            </a>
          </li>
        </ul>
      </nav>
      <p>
        © {new Date().getFullYear()} {identity.legalName} · CNPJ {identity.cnpj}
      </p>
      {config?.sandbox && <DemoMark />}
    </footer>
  );
}
