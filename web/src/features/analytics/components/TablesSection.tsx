import { useId } from 'react';
import { questionOf, type FunnelReply } from '../api';
import { countNoun, countOf } from '../format';
import { StepTable } from './StepTable';

export function TablesSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
  const titleId = useId();
  const question = questionOf(reply).toString();
  const count = reply.count ?? 'attempts';
  return (
    <section className="an-section an-tables" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Etapas, em {countNoun(count)}
      </h2>
      {reply.groups.map((group) => (
        <StepTable
          key={`${question}#${group.key}`}
          group={group}
          caption={`${labelOf(group.key)} · ${countOf(group.attempts, count)}`}
          drill={{ question, group: reply.breakdown ? group.key : null, groupLabel: labelOf(group.key), count }}
        />
      ))}
    </section>
  );
}
