import { TEXTS } from '../texts';

interface Props {
  /** Highest step reached: 1 phone, 2 code, 3 download. */
  current: 1 | 2 | 3;
}

/** The three numbered steps; every step up to the current one is highlighted. */
export function StepIndicator({ current }: Props) {
  return (
    <ol className="dl-steps" aria-label={TEXTS.stepsLabel}>
      {TEXTS.steps.map((label, index) => {
        const step = index + 1;
        const state = step < current ? 'done' : step === current ? 'current' : 'todo';
        return (
          <li
            key={label}
            className={`dl-steps__item dl-steps__item--${state}`}
            data-active={step <= current ? 'true' : 'false'}
            aria-current={step === current ? 'step' : undefined}
          >
            <span className="dl-steps__number" aria-hidden="true">
              {step}
            </span>
            <span className="dl-steps__label">{label}</span>
          </li>
        );
      })}
    </ol>
  );
}
