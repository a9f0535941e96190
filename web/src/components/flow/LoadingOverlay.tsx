import './flow.css';
interface Props {
  visible: boolean;
  /** Read by screen readers; the pressed button shows what is happening on screen. */
  label?: string;
}

/**
 * A light veil over the page while a call is in flight, so nothing is clicked twice. It draws
 * no spinner of its own: the button that started the call shows one beside its loading words.
 */
export function LoadingOverlay({ visible, label = 'Carregando…' }: Props) {
  if (!visible) return null;
  return (
    <div className="flow-overlay" role="status" aria-live="polite" aria-label={label}>
      <span className="visually-hidden">{label}</span>
    </div>
  );
}
