import { useId } from 'react';
import type { FunnelReply } from '../api';
import { attemptsCount } from '../format';
import { StepTable } from './StepTable';

export function TablesSection({ reply, labelOf }: { reply: FunnelReply; labelOf: (key: string) => string }) {
  const titleId = useId();
  return (
    <section className="an-section an-tables" aria-labelledby={titleId}>
      <h2 id={titleId} className="sp-subtitle">
        Etapas
      </h2>
      {reply.groups.map((group) => (
        <StepTable key={group.key} group={group} caption={`${labelOf(group.key)} · ${attemptsCount(group.attempts)}`} />
      ))}
    </section>
  );
}
