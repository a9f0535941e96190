import { useEffect, useRef } from 'react';
import { useReplay } from '../../../components/flow/replay';

/**
 * Shown for 3 s once the cloud account is active, before /cliente/hero; the 3 s start at
 * `onShown`. Replayed in the support console, it takes no focus and starts nothing.
 */
export function SuccessModal({ onShown }: { onShown: () => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  const replay = useReplay() !== null;
  useEffect(() => {
    if (replay) return;
    title.current?.focus();
    onShown();
  }, [onShown, replay]);
  return (
    <div className="cloud-modal-mask">
      <div className="cloud-modal" role="dialog" aria-modal="true" aria-labelledby="cloud-success-title">
        <svg width="64" height="64" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <circle cx="32" cy="32" r="30" fill="#19c3a6" />
          <path d="M19 33l9 9 17-19" fill="none" stroke="#0b1f4b" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <h2 id="cloud-success-title" ref={title} tabIndex={-1}>
          Número de série ativado!
        </h2>
        <p>Sua conta EXA Cloud está ativa. Estamos te levando para a próxima página...</p>
      </div>
    </div>
  );
}
