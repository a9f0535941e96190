// The six activation pages as configuration of the one template (spec section 2, "Security
// activation screens" and the route table; section 3, "Config" and "Panel flags").

import { activationPath } from '../../lib/flows';
import type { Variant } from './chain';
import { CARRIER_BUTTON, DEFAULT_BUTTON, DEFAULT_HEADING } from './texts';

export interface VariantConfig {
  variant: Variant;
  path: string;
  /** The partner shown in the top bar's centred logo; null for our own pages. */
  partner: string | null;
  /**
   * The partner's logo file: our own neutral mark in public/img/partners/, which a deployment
   * replaces with the partner's artwork under the same name.
   */
  partnerLogo: string | null;
  headTitle: string;
  buttonTitle: string;
  /** The CPF/CNPJ field is shown (carrier). */
  cpfCnpjIsVisible: boolean;
  /** The licence field is shown (subscribed by serial). */
  licenceIsVisible: boolean;
  /** The licence field is always disabled (partner portal: the value comes from the link). */
  disabledInputSerial: boolean;
  /** The brand the server sends upstream (for display only here). */
  brand: 'default' | 'agility' | 'tim';
  pageTitle: string;
  description: string;
}

const base = {
  partner: null,
  partnerLogo: null,
  headTitle: DEFAULT_HEADING,
  buttonTitle: DEFAULT_BUTTON,
  cpfCnpjIsVisible: false,
  licenceIsVisible: true,
  disabledInputSerial: false,
  brand: 'default' as const,
  description: 'Ative o EXA Segurança com o código enviado por SMS para o seu celular.',
};

export const VARIANT_CONFIGS: Record<Variant, VariantConfig> = {
  standard: { ...base, variant: 'standard', path: activationPath('standard'), pageTitle: 'Ativar EXA Segurança' },
  insurance: {
    ...base,
    variant: 'insurance',
    path: activationPath('insurance'),
    partner: 'Bradesco Seguros',
    partnerLogo: '/img/partners/bradesco-seguros.svg',
    pageTitle: 'Ativar EXA Segurança – Bradesco Seguros',
  },
  partner_portal: {
    ...base,
    variant: 'partner_portal',
    path: activationPath('partner_portal'),
    partner: 'Sumicity',
    partnerLogo: '/img/partners/sumicity.svg',
    disabledInputSerial: true,
    pageTitle: 'Ativar EXA Segurança – Sumicity',
  },
  broadband: {
    ...base,
    variant: 'broadband',
    path: activationPath('broadband'),
    partner: 'Brisanet',
    partnerLogo: '/img/partners/brisanet.svg',
    licenceIsVisible: false,
    pageTitle: 'Ativar EXA Segurança – Brisanet',
  },
  telecom: {
    ...base,
    variant: 'telecom',
    path: activationPath('telecom'),
    partner: 'Agility',
    partnerLogo: '/img/partners/agility.svg',
    licenceIsVisible: false,
    brand: 'agility',
    pageTitle: 'Ativar EXA Segurança – Agility',
  },
  carrier: {
    ...base,
    variant: 'carrier',
    path: activationPath('carrier'),
    partner: 'TIM',
    partnerLogo: '/img/partners/tim.svg',
    buttonTitle: CARRIER_BUTTON,
    cpfCnpjIsVisible: true,
    licenceIsVisible: false,
    brand: 'tim',
    pageTitle: 'Ativar EXA Segurança – TIM',
  },
};

/** The variant served at `pathname`, if any. */
export function variantForPath(pathname: string): Variant | null {
  const clean = pathname.replace(/\/+$/, '');
  const found = Object.values(VARIANT_CONFIGS).find((config) => config.path === clean);
  return found ? found.variant : null;
}
