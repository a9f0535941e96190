import { useEffect, useRef } from 'react';

/** Shown for 3 s once the cloud account is active, before /cliente/hero; the 3 s start at `onShown`. */
export function SuccessModal({ onShown }: { onShown: () => void }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    title.current?.focus();
    onShown();
  }, [onShown]);
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
