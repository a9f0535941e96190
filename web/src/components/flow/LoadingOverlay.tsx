import './flow.css';
interface Props {
  visible: boolean;
  label?: string;
}

/** Covers the panel while a call is in flight, so nothing is clicked twice. */
export function LoadingOverlay({ visible, label = 'Carregando…' }: Props) {
  if (!visible) return null;
  return (
    <div className="flow-overlay" role="status" aria-live="polite" aria-label={label}>
      <span className="flow-overlay__spinner" aria-hidden="true" />
    </div>
  );
}
