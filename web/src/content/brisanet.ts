// The broadband-partner landing (/seguranca/brisanet). The spec's landing banner item:
// title, description, image, icon, direction, backgroundColor.

export interface LandingBannerItem {
  title: string;
  description: string;
  image: string;
  icon: string;
  direction: 'row' | 'row-reverse';
  backgroundColor: string;
}

export const BRISANET_BANNER: LandingBannerItem = {
  title: 'Garanta a Proteção Digital da sua família',
  description:
    'Como cliente Brisanet, você tem o EXA Segurança para proteger celulares e computadores da casa contra vírus, golpes e sites falsos.',
  image: '/img/brisanet-family.svg',
  icon: '/img/icon-seguranca.svg',
  direction: 'row',
  backgroundColor: '#0b1f4b',
};

export const BRISANET_CARDS = [
  {
    title: 'Antivírus',
    description: 'Proteção em tempo real contra vírus, spyware e ransomware.',
    image: '/img/feature-antivirus.svg',
  },
  {
    title: 'Proteção de aplicativos',
    description: 'Alertas sobre apps fraudulentos e permissões abusivas.',
    image: '/img/feature-apps.svg',
  },
  {
    title: 'Liberar espaço',
    description: 'Limpeza de arquivos inúteis para o celular ficar mais leve.',
    image: '/img/feature-cleanup.svg',
  },
  {
    title: 'Navegador seguro',
    description: 'Bloqueio de páginas falsas e links de phishing.',
    image: '/img/feature-browser.svg',
  },
] as const;
