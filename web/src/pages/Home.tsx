import { Link } from 'react-router';
import { ExternalLink } from '../components/ExternalLink';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { ActivationEntry } from '../components/ActivationEntry';
import { PRESS } from '../content/press';
import { PRODUCT_CARDS, SAFER_CARDS } from '../content/products';
import { SCAM_CARDS } from '../content/scams';
import { Illustration } from '../components/Illustration';
import heroSvg from '../content/illustrations/hero-home.svg?raw';

export default function Home() {
  usePageMeta({
    title: 'EXA | Proteção digital para você e sua família',
    description:
      'Antivírus, backup na nuvem e localização da família em um só lugar. Conheça o EXA Segurança, o EXA Cloud e o Gestão Digital e aprenda a não cair em golpes.',
  });

  return (
    <SiteShell showAnnouncement>
      <section className="hero hero--home" aria-labelledby="home-title">
        <div className="container hero__inner">
          <div className="hero__text">
            <p className="eyebrow">Segurança digital sem complicação</p>
            <h1 id="home-title">Proteção digital para você e sua família</h1>
            <p className="hero__lead">
              Celular, computador e memórias protegidos contra vírus, golpes e perdas, com o plano que você já tem no seu
              provedor.
            </p>
            <a href="#discover-the-exa" className="button button--primary">
              Descubra a Exa
            </a>
          </div>
          <Illustration className="hero__image" svg={heroSvg} label="Família com celulares protegidos por um escudo da EXA" />
        </div>
      </section>

      <ActivationEntry />

      <section id="discover-the-exa" className="section" aria-labelledby="discover-title">
        <div className="container">
          <h2 id="discover-title" className="section__title">
            Descubra a EXA
          </h2>
          <p className="section__lead">
            Uma empresa brasileira de segurança digital com produtos que se completam. Escolha por onde começar.
          </p>
          <ul className="card-grid card-grid--4">
            {PRODUCT_CARDS.map((card) => (
              <li key={card.title} className="card product-card">
                <img src={card.image} width="56" height="56" alt={card.vector} loading="lazy" />
                <p className="card__small">{card.small}</p>
                <h3>{card.title}</h3>
                <p>{card.description}</p>
                {card.external ? (
                  <ExternalLink href={card.url} className="card__link">
                    Conhecer a {card.title}
                  </ExternalLink>
                ) : (
                  <Link to={card.url} className="card__link">
                    Conhecer o {card.title}
                  </Link>
                )}
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="you-safer" className="section section--tinted" aria-labelledby="safer-title">
        <div className="container">
          <h2 id="safer-title" className="section__title">
            Você mais seguro
          </h2>
          <ul className="card-grid card-grid--2">
            {SAFER_CARDS.map((card) => (
              <li key={card.title} className="card safer-card">
                <img src={card.image} width="96" height="96" alt={card.vector} loading="lazy" />
                <div>
                  <h3>{card.title}</h3>
                  <p>{card.description}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="exa-in-the-press" className="section" aria-labelledby="press-title">
        <div className="container">
          <h2 id="press-title" className="section__title">
            EXA na imprensa
          </h2>
          <ul className="press-grid">
            {PRESS.map((item) => (
              <li key={item.name}>
                <ExternalLink href={item.link} className="press-card">
                  <img className="press-logo" src={item.file} width="200" height="48" alt={item.name} loading="lazy" />
                  <span className="press-card__headline">{item.headline}</span>
                </ExternalLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="dont-fall-for-blows" className="section section--dark" aria-labelledby="blows-title">
        <div className="container">
          <h2 id="blows-title" className="section__title">
            Não caia em golpes
          </h2>
          <p className="section__lead">Conheça os golpes digitais mais comuns no Brasil e como se proteger de cada um.</p>
          <ul className="card-grid card-grid--4">
            {SCAM_CARDS.map((card) => (
              <li key={card.title} className="card scam-card">
                <img src={card.image} width="72" height="72" alt={card.vector} loading="lazy" />
                <h3>{card.title}</h3>
                <p>{card.description}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>
    </SiteShell>
  );
}
