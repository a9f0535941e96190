import { flowLabel, variantLabel } from '../../../lib/flows';

/** "Ativação EXA Segurança" with the variant (partner, OS) below it. */
export function FlowName({ flow, variant }: { flow: string; variant?: string | null }) {
  const partner = variantLabel(variant);
  return (
    <span className="sp-flow">
      <span className="sp-flow__name">{flowLabel(flow)}</span>
      {partner && <span className="sp-flow__variant">{partner}</span>}
    </span>
  );
}

export function DateTime({ iso, children }: { iso: string | null | undefined; children: string }) {
  return iso ? <time dateTime={iso}>{children}</time> : <>{children}</>;
}
