import { FaqAccordion } from '../components/FaqAccordion';
import { usePageMeta } from '../components/Seo';
import { SiteShell } from '../components/SiteShell';
import { FAQ_GROUPS } from '../content/faq';

export default function Faq() {
  usePageMeta({
    title: 'Perguntas Frequentes',
    description:
      'Respostas sobre a EXA, o EXA Segurança, o EXA Cloud e o Gestão Digital: ativação, código por SMS, compatibilidade e backup.',
  });

  return (
    <SiteShell>
      <section className="page-hero" aria-labelledby="faq-title">
        <div className="container">
          <h1 id="faq-title">Perguntas Frequentes</h1>
          <p className="hero__lead">Tire suas dúvidas sobre os produtos da EXA. Não achou o que procurava? Fale com o nosso chat.</p>
        </div>
      </section>
      <div className="section">
        <div className="container container--narrow">
          <FaqAccordion groups={FAQ_GROUPS} />
        </div>
      </div>
    </SiteShell>
  );
}
