import type { ReactNode } from 'react';

interface Props {
  heading: ReactNode;
  onSubmit: () => void;
  children: ReactNode;
}

/** A panel with fields: labelled by its heading, checked by our rules (noValidate), sent without a page load. */
export function PanelForm({ heading, onSubmit, children }: Props) {
  return (
    <form
      className="activation-panel"
      aria-labelledby="activation-heading"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <h1 id="activation-heading" className="activation-heading">
        {heading}
      </h1>
      {children}
    </form>
  );
}
