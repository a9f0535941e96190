import { panelLabel, stepLabel } from '../labels';

/** A step or panel by its Portuguese name, with the machine name support tickets quote. */
function Named({ label, id }: { label: string; id: string }) {
  if (label === id) return <code>{id}</code>;
  return (
    <span className="sp-named">
      {label} <code className="sp-named__id">{id}</code>
    </span>
  );
}

export function StepName({ name }: { name: string }) {
  return <Named label={stepLabel(name)} id={name} />;
}

export function PanelName({ name }: { name: string }) {
  return <Named label={panelLabel(name)} id={name} />;
}
