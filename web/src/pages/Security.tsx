import { Link } from 'react-router';
import { FeatureSections } from '../components/FeatureSections';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { ActivationEntry } from '../components/ActivationEntry';
import { StoreButtons } from '../components/StoreButtons';
import { STORES } from '../content/company';
import { SECURITY_FEATURES } from '../content/features';
import { Illustration } from '../components/Illustration';
import heroSvg from '../content/illustrations/hero-seguranca.svg?raw';

function DesktopMark({ os }: { os: 'windows' | 'mac' }) {
  return os === 'windows' ? (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d="M3 5.5l7.5-1v7H3zM11.5 4.3L21 3v8.5h-9.5zM3 12.5h7.5v7L3 18.5zM11.5 12.5H21V21l-9.5-1.3z" fill="currentColor" />
    </svg>
  ) : (
    <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="12" rx="1.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M8 20h8M12 16v4" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

export default function Security() {
  usePageMeta({
    title: 'EXA Segurança: antivírus, VPN e navegação segura',
    description:
      'O EXA Segurança (antigo Hero) protege celular e computador com antivírus, proteção de aplicativos, navegador seguro, limpeza, economia de bateria, VPN e bloqueio de apps.',
  });

  return (
    <SiteShell>
      <section className="hero" aria-labelledby="security-title">
        <div className="container hero__inner">
          <div className="hero__text">
            <p className="eyebrow">Antes conhecido como Hero</p>
            <h1 id="security-title">EXA Segurança</h1>
            <p className="hero__lead">
              Antivírus, proteção contra golpes e privacidade em um único app, para Android, iOS, Windows e Mac.
            </p>
            <StoreButtons product="EXA Segurança" android={STORES.seguranca.android} ios={STORES.seguranca.ios} />
            <ul className="store-buttons" aria-label="Baixar o EXA Segurança para computador">
              <li>
                <Link to="/av-desktop/download/win_pc" className="store-button">
                  <DesktopMark os="windows" />
                  <span>
                    <small>Baixar para</small> Windows
                  </span>
                </Link>
              </li>
              <li>
                <Link to="/av-desktop/download/mac" className="store-button">
                  <DesktopMark os="mac" />
                  <span>
                    <small>Baixar para</small> Mac
                  </span>
                </Link>
              </li>
            </ul>
          </div>
          <Illustration className="hero__image" svg={heroSvg} label="Celular e notebook protegidos pelo escudo do EXA Segurança" />
        </div>
      </section>
      <ActivationEntry />
      <FeatureSections sections={SECURITY_FEATURES} />
    </SiteShell>
  );
}
