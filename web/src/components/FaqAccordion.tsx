import { useId, useState } from 'react';
import type { FaqGroup, FaqItem } from '../content/faq';
import { ChevronIcon } from './Icons';
import { LinkifiedText } from './LinkifiedText';

/** One question; its answer shows when opened, and at first when the item says `open`. */
export function FaqQuestion({ item }: { item: FaqItem }) {
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
      <FaqList id={`${id}-content`} className="faq-group__content" hidden={!open} items={group.content} />
    </section>
  );
}

interface FaqListProps {
  items: readonly FaqItem[];
  id: string;
  className: string;
  hidden?: boolean;
  /** Shows the first `limit` questions, with 'Exibir todos' / 'Exibir menos' for the rest. */
  limit?: number;
  /** Classes of that 'Exibir todos' / 'Exibir menos' button. */
  moreClassName?: string;
}

/** A list of questions, all of them or (with `limit`) the first few and a button for the rest. */
export function FaqList({
  items,
  id,
  className,
  hidden,
  limit,
  moreClassName = 'button button--outline button--small',
}: FaqListProps) {
  const [all, setAll] = useState(false);
  const limited = limit !== undefined && items.length > limit;
  const shown = limited && !all ? items.slice(0, limit) : items;
  return (
    <>
      <ul id={id} className={className} hidden={hidden}>
        {shown.map((item) => (
          <FaqQuestion key={item.question} item={item} />
        ))}
      </ul>
      {limited && (
        <button
          type="button"
          className={moreClassName}
          aria-controls={id}
          aria-expanded={all}
          onClick={() => setAll((value) => !value)}
        >
          {all ? 'Exibir menos' : 'Exibir todos'}
        </button>
      )}
    </>
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
