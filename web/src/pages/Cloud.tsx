import { ExternalLink } from '../components/ExternalLink';
import { FeatureSections } from '../components/FeatureSections';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { StoreButtons } from '../components/StoreButtons';
import { EXTERNAL, STORES } from '../content/company';
import { CLOUD_FEATURES } from '../content/features';
import { Illustration } from '../components/Illustration';
import heroSvg from '../content/illustrations/hero-cloud.svg?raw';

export default function Cloud() {
  usePageMeta({
    title: 'EXA Cloud: backup de fotos, vídeos e arquivos',
    description:
      'Guarde fotos, vídeos, músicas, contatos e arquivos no EXA Cloud, ouça playlists offline e compartilhe por rede social, e-mail ou link.',
  });

  return (
    <SiteShell
      headerAction={
        <ExternalLink href={EXTERNAL.cloudApp} className="button button--primary button--small">
          Acessar meu EXA Cloud
        </ExternalLink>
      }
    >
      <section className="hero" aria-labelledby="cloud-title">
        <div className="container hero__inner">
          <div className="hero__text">
            <p className="eyebrow">Backup na nuvem</p>
            <h1 id="cloud-title">EXA Cloud</h1>
            <p className="hero__lead">Suas memórias guardadas com segurança e sempre à mão, em qualquer aparelho.</p>
            <StoreButtons product="EXA Cloud" android={STORES.cloud.android} ios={STORES.cloud.ios} />
          </div>
          <Illustration className="hero__image" svg={heroSvg} label="Nuvem guardando fotos, músicas e documentos" />
        </div>
      </section>
      <FeatureSections sections={CLOUD_FEATURES} />
    </SiteShell>
  );
}
