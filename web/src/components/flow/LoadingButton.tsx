import './flow.css';
import type { ReactNode } from 'react';

interface Props {
  children: ReactNode;
  /** A call started by this button is in flight. */
  busy?: boolean;
  /** What is happening while busy, e.g. 'Enviando código…'. */
  busyLabel?: string;
  disabled?: boolean;
  type?: 'submit' | 'button';
  onClick?: () => void;
  className?: string;
}

/**
 * The flows' main button: while its call runs it says what is happening, with a small spinner
 * beside the words (never over them), and cannot be pressed twice.
 */
export function LoadingButton({ children, busy = false, busyLabel, disabled = false, type = 'submit', onClick, className = '' }: Props) {
  return (
    <button
      type={type}
      className={`button button--primary flow-button ${className}`.trim()}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
      onClick={onClick}
    >
      {busy && <span className="flow-button__spinner" aria-hidden="true" />}
      <span>{busy && busyLabel ? busyLabel : children}</span>
    </button>
  );
}
