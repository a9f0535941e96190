import { Link } from 'react-router';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { BRISANET_BANNER, BRISANET_CARDS } from '../content/brisanet';
import { Illustration } from '../components/Illustration';
import heroSvg from '../content/illustrations/brisanet-family.svg?raw';

export default function BrisanetLanding() {
  usePageMeta({
    title: 'EXA Segurança para clientes Brisanet',
    description:
      'Clientes Brisanet têm o EXA Segurança: antivírus, proteção de aplicativos, limpeza e navegador seguro para toda a família. Ative agora.',
  });
  const banner = BRISANET_BANNER;

  return (
    <SiteShell>
      <section className="landing-banner" style={{ backgroundColor: banner.backgroundColor }} aria-labelledby="brisanet-title">
        <div className="container landing-banner__inner" style={{ flexDirection: banner.direction }}>
          <div className="hero__text">
            <img src={banner.icon} width="48" height="48" alt="Ícone do EXA Segurança" />
            <h1 id="brisanet-title">{banner.title}</h1>
            <p className="hero__lead">{banner.description}</p>
            <Link to="/seguranca/ativarbrisanet" className="button button--primary">
              Ativar minha proteção
            </Link>
          </div>
          <Illustration className="hero__image" svg={heroSvg} label="Família reunida usando celular e computador com proteção" />
        </div>
      </section>
      <section className="section" aria-labelledby="how-title">
        <div className="container">
          <h2 id="how-title" className="section__title">
            Como atendemos?
          </h2>
          <ul className="card-grid card-grid--4">
            {BRISANET_CARDS.map((card) => (
              <li key={card.title} className="card gallery-card">
                <img src={card.image} width="160" height="120" alt="" loading="lazy" />
                <h3>{card.title}</h3>
                <p>{card.description}</p>
                <Link to="/seguranca" className="button button--outline" aria-label={`Saiba mais sobre ${card.title}`}>
                  Saiba mais
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="section section--tinted" aria-labelledby="have-title">
        <div className="container cta-block">
          <h2 id="have-title">Já tem o EXA Segurança?</h2>
          <p>Ative a proteção incluída na sua assinatura Brisanet em poucos passos, com o seu celular.</p>
          <Link to="/seguranca/ativarbrisanet" className="button button--primary">
            Ativar agora
          </Link>
        </div>
      </section>
    </SiteShell>
  );
}
