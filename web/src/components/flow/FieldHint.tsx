import './flow.css';

/** The line under a field, tied to its input by aria-describedby (`{id}-hint`). */
export function FieldHint({ id, hint }: { id: string; hint?: string }) {
  if (!hint) return null;
  return (
    <p id={`${id}-hint`} className="flow-field__hint">
      {hint}
    </p>
  );
}

/** aria-describedby for a field: its hint, then whatever else describes it. */
export function describedBy(id: string, hint?: string, extra?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : null, extra || null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}
