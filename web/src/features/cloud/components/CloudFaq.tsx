import { useId, useState } from 'react';
import { ChevronIcon } from '../../../components/Icons';
import { CLOUD_FAQ, FAQ_VISIBLE, type CloudFaqItem } from '../faq';

function Question({ item }: { item: CloudFaqItem }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <li className="faq-item">
      <h3 className="faq-item__heading">
        <button
          type="button"
          className="faq-item__toggle"
          aria-expanded={open}
          aria-controls={`${id}-answer`}
          onClick={() => setOpen((value) => !value)}
        >
          <span>{item.question}</span>
          <ChevronIcon open={open} />
        </button>
      </h3>
      <div id={`${id}-answer`} className="faq-item__answer" hidden={!open}>
        <p>{item.answer}</p>
      </div>
    </li>
  );
}

/** The first questions, and 'Exibir todos' / 'Exibir menos' for the rest. */
export function CloudFaq({ items = CLOUD_FAQ }: { items?: readonly CloudFaqItem[] }) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, FAQ_VISIBLE);
  return (
    <section className="cloud-faq" aria-labelledby="cloud-faq-title">
      <h2 id="cloud-faq-title">Perguntas frequentes</h2>
      <ul className="cloud-faq__list" id="cloud-faq-list">
        {shown.map((item) => (
          <Question key={item.question} item={item} />
        ))}
      </ul>
      {items.length > FAQ_VISIBLE && (
        <button
          type="button"
          className="button button--outline button--small cloud-faq__more"
          aria-controls="cloud-faq-list"
          aria-expanded={all}
          onClick={() => setAll((value) => !value)}
        >
          {all ? 'Exibir menos' : 'Exibir todos'}
        </button>
      )}
    </section>
  );
}
