// The portal's three flows and their variants in one table: the key the server and the events
// use, the page a visitor opens (the spec's route table), and the label staff read in the
// support console and on the funnel page. The router (App.tsx), the activation pages, the
// console and the funnels all read it, so a route or a label is written once.

export type FlowKey = 'activation' | 'download' | 'cloud';

export type ActivationVariant = 'standard' | 'insurance' | 'partner_portal' | 'broadband' | 'telecom' | 'carrier';
export type DownloadVariant = 'win_pc' | 'mac';
export type CloudVariant = 'positivo';

export interface VariantRow<K extends string = string> {
  key: K;
  /** The page the variant runs on. */
  path: string;
  /** What staff read: the partner, the operating system, the brand. */
  label: string;
}

export interface FlowRow {
  key: FlowKey;
  label: string;
  variants: readonly VariantRow[];
}

export const ACTIVATION_VARIANTS: readonly VariantRow<ActivationVariant>[] = [
  { key: 'standard', path: '/seguranca/ativar', label: 'Padrão' },
  { key: 'insurance', path: '/seguranca/ativarbradescoseguros', label: 'Bradesco Seguros' },
  { key: 'partner_portal', path: '/seguranca/ativarsumicity', label: 'Sumicity' },
  { key: 'broadband', path: '/seguranca/ativarbrisanet', label: 'Brisanet' },
  { key: 'telecom', path: '/seguranca/ativaragility', label: 'Agility' },
  { key: 'carrier', path: '/seguranca/tim', label: 'TIM' },
];

/** The desktop download's route; its `:os` is the variant. */
export const DOWNLOAD_ROUTE = '/av-desktop/download/:os';

export const DOWNLOAD_VARIANTS: readonly VariantRow<DownloadVariant>[] = [
  { key: 'win_pc', path: '/av-desktop/download/win_pc', label: 'Windows' },
  { key: 'mac', path: '/av-desktop/download/mac', label: 'macOS' },
];

export const CLOUD_VARIANTS: readonly VariantRow<CloudVariant>[] = [
  { key: 'positivo', path: '/cloud/positivo', label: 'Positivo' },
];

export const FLOWS: readonly FlowRow[] = [
  { key: 'activation', label: 'Ativação EXA Segurança', variants: ACTIVATION_VARIANTS },
  { key: 'download', label: 'Download do antivírus', variants: DOWNLOAD_VARIANTS },
  { key: 'cloud', label: 'Ativação EXA Cloud', variants: CLOUD_VARIANTS },
];

/** The flow's label; the key itself for a flow the table does not know. */
export const flowLabel = (flow: string) => FLOWS.find((f) => f.key === flow)?.label ?? flow;

/** Any flow's variant by key (the keys are unique across flows). */
export function variantRow(variant: string | null | undefined): VariantRow | undefined {
  if (!variant) return undefined;
  for (const flow of FLOWS) {
    const row = flow.variants.find((v) => v.key === variant);
    if (row) return row;
  }
  return undefined;
}

/** The variant's label; the key itself when unknown; null without a variant. */
export const variantLabel = (variant: string | null | undefined) =>
  variant ? (variantRow(variant)?.label ?? variant) : null;

/** The activation variant's page. */
export const activationPath = (variant: ActivationVariant) =>
  ACTIVATION_VARIANTS.find((v) => v.key === variant)?.path ?? ACTIVATION_VARIANTS[0].path;

/** The history state the cloud activation leaves with for /cliente/hero (spec: success, then that page). */
export const CLOUD_ACTIVATED_STATE = { cloudActivated: true } as const;
