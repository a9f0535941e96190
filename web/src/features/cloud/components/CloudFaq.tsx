import { FaqList } from '../../../components/FaqAccordion';
import { CLOUD_FAQ, FAQ_VISIBLE, type CloudFaqItem } from '../faq';

/** The first questions, and 'Exibir todos' / 'Exibir menos' for the rest. */
export function CloudFaq({ items = CLOUD_FAQ }: { items?: readonly CloudFaqItem[] }) {
  return (
    <section className="cloud-faq" aria-labelledby="cloud-faq-title">
      <h2 id="cloud-faq-title">Perguntas frequentes</h2>
      <FaqList
        items={items}
        id="cloud-faq-list"
        className="cloud-faq__list"
        limit={FAQ_VISIBLE}
        moreClassName="button button--outline button--small cloud-faq__more"
      />
    </section>
  );
}
