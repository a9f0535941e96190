import { useId, useState } from 'react';
import type { FaqGroup, FaqItem } from '../content/faq';
import { ChevronIcon } from './Icons';
import { LinkifiedText } from './LinkifiedText';

function Question({ item }: { item: FaqItem }) {
  const [open, setOpen] = useState(item.open === true);
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
        <p>
          <LinkifiedText text={item.answer} label="clique aqui" />
        </p>
      </div>
    </li>
  );
}

function Group({ group }: { group: FaqGroup }) {
  const [open, setOpen] = useState(group.open === true);
  const id = useId();
  return (
    <section className="faq-group" aria-labelledby={`${id}-title`}>
      <h2 className="faq-group__heading" id={`${id}-title`}>
        <button
          type="button"
          className="faq-group__toggle"
          aria-expanded={open}
          aria-controls={`${id}-content`}
          onClick={() => setOpen((value) => !value)}
        >
          <span>{group.title}</span>
          <ChevronIcon open={open} size={20} />
        </button>
      </h2>
      <ul id={`${id}-content`} className="faq-group__content" hidden={!open}>
        {group.content.map((item) => (
          <Question key={item.question} item={item} />
        ))}
      </ul>
    </section>
  );
}

/** Collapsible FAQ groups; each group and question starts as its content says. */
export function FaqAccordion({ groups }: { groups: readonly FaqGroup[] }) {
  return (
    <div className="faq">
      {groups.map((group) => (
        <Group key={group.title} group={group} />
      ))}
    </div>
  );
}
