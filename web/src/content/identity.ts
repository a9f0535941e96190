// The company's identity as visitors read it (footer, contact page, terms, chat fallback).
// The operator sets the real values on the server (COMPANY_*, SUPPORT_*, ETHICS_SEAL_URL in the
// README); GET /api/public-config sends them, and these placeholders only stand in while it
// loads or when it cannot be read. No certification appears here that the company has not been
// issued: the ethical-company seal is an image slot the certifier's file fills.

export interface CompanyIdentity {
  legalName: string;
  cnpj: string;
  /** Postal address, one line per item. */
  address: readonly string[];
  contactEmail: string;
  pressEmail: string;
  /** Support line as visitors dial it; null when not configured. */
  supportPhone: string | null;
  /** Support WhatsApp number as visitors read it; null when not configured. */
  supportWhatsapp: string | null;
  /** The ethical-company seal as its certifier issues it; null for our neutral slot. */
  ethicsSealUrl: string | null;
}

export const PLACEHOLDER_IDENTITY: CompanyIdentity = {
  legalName: 'EXA Tecnologia e Segurança Digital S.A.',
  cnpj: '00.000.000/0001-00',
  address: ['Rua Fidêncio Ramos, 308 – 12º andar', 'Vila Olímpia, São Paulo – SP', 'CEP 04551-010'],
  contactEmail: 'contato@exa.com.br',
  pressEmail: 'imprensa@exa.com.br',
  supportPhone: null,
  supportWhatsapp: null,
  ethicsSealUrl: null,
};

/** Our neutral drawing that holds the seal's place until the certifier's image is configured. */
export const ETHICS_SEAL_SLOT = '/img/seal-empresa-etica.svg';
export const ETHICS_SEAL_ALT = 'Selo Empresa Ética certificada';

/** The seals the footer shows: only the spec's ethical-company seal. */
export function seals(identity: CompanyIdentity): { src: string; alt: string }[] {
  return [{ src: identity.ethicsSealUrl ?? ETHICS_SEAL_SLOT, alt: ETHICS_SEAL_ALT }];
}

/** Fills the gaps of a partial identity (as the server sent it) with the placeholders. */
export function withPlaceholders(partial: Partial<CompanyIdentity> | undefined): CompanyIdentity {
  return { ...PLACEHOLDER_IDENTITY, ...(partial ?? {}) };
}

function digits(value: string): string {
  return value.replace(/\D/g, '');
}

/** `tel:` address of a Brazilian number as printed ("0800 000 1234", "(11) 3000-0000"). */
export function telHref(phone: string): string {
  const d = digits(phone);
  return d.startsWith('0') || d.startsWith('55') ? `tel:${d.startsWith('55') ? `+${d}` : d}` : `tel:+55${d}`;
}

/** WhatsApp's click-to-chat address of a Brazilian number. */
export function whatsappHref(phone: string): string {
  const d = digits(phone);
  return `https://wa.me/${d.startsWith('55') && d.length > 11 ? d : `55${d}`}`;
}
