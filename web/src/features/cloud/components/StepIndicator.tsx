const STEPS = ['Seus dados', 'Código SMS', 'Ativação'] as const;

/** The three steps of the activation; the current one is highlighted. */
export function StepIndicator({ current }: { current: number }) {
  return (
    <ol className="cloud-steps" aria-label="Etapas da ativação">
      {STEPS.map((label, index) => (
        <li
          key={label}
          className={`cloud-steps__item${index === current ? ' is-current' : ''}${index < current ? ' is-done' : ''}`}
          aria-current={index === current ? 'step' : undefined}
        >
          <span className="cloud-steps__number" aria-hidden="true">
            {index + 1}
          </span>
          {label}
        </li>
      ))}
    </ol>
  );
}
