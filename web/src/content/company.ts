// Company facts and every external address the site links to, in one place.
// The company and its addresses are fictional; swap them here, not in components.

// The company's identity (legal name, CNPJ, address, e-mails, phones, seal) is the operator's:
// see content/identity.ts, fed by GET /api/public-config.
export const COMPANY = {
  name: 'EXA',
  siteUrl: 'https://www.exa.com.br',
} as const;

export const EXTERNAL = {
  pixProtection: 'https://pix.exa.com.br',
  cloudApp: 'https://cloud.exa.com.br',
  whistleblower: 'https://canaldedenuncia.exa.com.br',
  privacyPortal: 'https://privacidade.exa.com.br',
  codeOfEthics: 'https://www.exa.com.br/institucional/codigo-de-etica',
  /** The external terms and privacy page that /termos redirects to. */
  termsPage: 'https://privacidade.exa.com.br/termos-de-uso-e-privacidade',
  instagram: 'https://www.instagram.com/exa.seguranca',
  linkedin: 'https://www.linkedin.com/company/exa-seguranca',
} as const;

/** App store pages of the three products. */
export const STORES = {
  seguranca: {
    android: 'https://play.google.com/store/apps/details?id=br.com.exa.seguranca',
    ios: 'https://apps.apple.com/br/app/exa-seguranca/id1500000001',
  },
  cloud: {
    android: 'https://play.google.com/store/apps/details?id=br.com.exa.cloud',
    ios: 'https://apps.apple.com/br/app/exa-cloud/id1500000002',
  },
  gestao: {
    android: 'https://play.google.com/store/apps/details?id=br.com.exa.gestao',
    ios: 'https://apps.apple.com/br/app/exa-gestao-digital/id1500000003',
  },
} as const;

/** Our own terms: one PDF file and two HTM paths that render the shared terms screen. */
export const TERMS_PATHS = {
  pdf: '/assets/termos-de-uso-e-privacidade.pdf',
  terms: '/assets/termos-de-uso.htm',
  privacy: '/assets/politica-de-privacidade.htm',
} as const;
