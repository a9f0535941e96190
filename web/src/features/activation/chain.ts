// The six variants' upstream chains, mirrored from events/src/flows/activation/variant.rs:
// which steps run before the code is sent and after it is validated.

export type Variant = 'standard' | 'insurance' | 'partner_portal' | 'broadband' | 'telecom' | 'carrier';

export const VARIANTS: readonly Variant[] = ['standard', 'insurance', 'partner_portal', 'broadband', 'telecom', 'carrier'];

export type Step =
  | 'prepare_partner_login'
  | 'look_up_customer'
  | 'partner_login'
  | 'fetch_account'
  | 'carrier_token'
  | 'authorize_document'
  | 'send_code'
  | 'validate_code'
  | 'authorize'
  | 'verify_token'
  | 'fetch_packs'
  | 'subscribe_serial'
  | 'subscribe_by_hash';

export function isVariant(value: unknown): value is Variant {
  return typeof value === 'string' && (VARIANTS as readonly string[]).includes(value);
}

export function beforeCode(variant: Variant): Step[] {
  if (variant === 'telecom') return ['partner_login', 'fetch_account'];
  if (variant === 'carrier') return ['carrier_token', 'authorize_document'];
  return [];
}

export function afterCode(variant: Variant): Step[] {
  if (variant === 'broadband' || variant === 'telecom') return ['subscribe_by_hash'];
  if (variant === 'carrier') return ['authorize', 'verify_token', 'fetch_packs'];
  return ['subscribe_serial'];
}

/** The step after `step` in the chain; `null` at the end of the after-code chain. */
export function stepAfter(variant: Variant, step: Step): Step | null {
  const before = beforeCode(variant);
  const i = before.indexOf(step);
  if (i >= 0) return before[i + 1] ?? 'send_code';
  const after = afterCode(variant);
  const j = after.indexOf(step);
  if (j >= 0) return after[j + 1] ?? null;
  return null;
}

export const needsLicence = (variant: Variant) =>
  variant === 'standard' || variant === 'insurance' || variant === 'partner_portal';
export const needsDocument = (variant: Variant) => variant === 'carrier';
export const formPanel = (variant: Variant | null) => (variant === 'telecom' ? 'email' : 'send_code');

const STEPS: readonly string[] = [
  'prepare_partner_login', 'look_up_customer', 'partner_login', 'fetch_account', 'carrier_token',
  'authorize_document', 'send_code', 'validate_code', 'authorize', 'verify_token', 'fetch_packs',
  'subscribe_serial', 'subscribe_by_hash',
];

export function isStep(value: unknown): value is Step {
  return typeof value === 'string' && STEPS.includes(value);
}
