import './flow.css';
import type { ReactNode } from 'react';

interface Props {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  required?: boolean;
}

/** A checkbox drawn in the site's colours (a real input underneath: keyboard, label and forms as usual). */
export function Checkbox({ id, checked, onChange, children, required = false }: Props) {
  return (
    <div className="flow-check">
      <input
        id={id}
        type="checkbox"
        className="flow-check__input"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        required={required}
        aria-required={required || undefined}
      />
      <label className="flow-check__label" htmlFor={id}>
        {children}
      </label>
    </div>
  );
}
