import { FeatureSections } from '../components/FeatureSections';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { StoreButtons } from '../components/StoreButtons';
import { STORES } from '../content/company';
import { MANAGEMENT_FEATURES } from '../content/features';
import { Illustration } from '../components/Illustration';
import heroSvg from '../content/illustrations/hero-gestao.svg?raw';

export default function Management() {
  usePageMeta({
    title: 'Gestão Digital: localização da família em tempo real',
    description:
      'Com o Gestão Digital da EXA você vê onde está cada pessoa do grupo, recebe alertas de entrada e saída das áreas favoritas e pede ajuda com um toque.',
  });

  return (
    <SiteShell>
      <section className="hero" aria-labelledby="gestao-title">
        <div className="container hero__inner">
          <div className="hero__text">
            <p className="eyebrow">Localização da família</p>
            <h1 id="gestao-title">Gestão Digital</h1>
            <p className="hero__lead">Saiba que todos chegaram bem: localização em tempo real, áreas favoritas e pedido de ajuda.</p>
            <StoreButtons product="Gestão Digital" android={STORES.gestao.android} ios={STORES.gestao.ios} />
          </div>
          <Illustration className="hero__image" svg={heroSvg} label="Mapa da cidade com a localização das pessoas da família" />
        </div>
      </section>
      <FeatureSections sections={MANAGEMENT_FEATURES} />
    </SiteShell>
  );
}
