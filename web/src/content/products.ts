import { EXTERNAL } from './company';

// The spec's product card: title, small, image, vector, description.
export interface ProductCard {
  title: string;
  small: string;
  image: string;
  vector: string;
  description: string;
  url: string;
  external?: boolean;
}

export const PRODUCT_CARDS: readonly ProductCard[] = [
  {
    title: 'EXA Segurança',
    small: 'Antes conhecido como Hero',
    image: '/img/icon-seguranca.svg',
    vector: 'Escudo com marca de verificação',
    description:
      'Antivírus, proteção de aplicativos, navegador seguro, VPN e bloqueio de apps no celular e no computador.',
    url: '/seguranca',
  },
  {
    title: 'EXA Cloud',
    small: 'Backup na nuvem',
    image: '/img/icon-cloud.svg',
    vector: 'Nuvem com seta de envio',
    description: 'Fotos, vídeos, músicas, contatos e arquivos guardados com segurança e sempre à mão.',
    url: '/cloud',
  },
  {
    title: 'Gestão Digital',
    small: 'Localização da família',
    image: '/img/icon-gestao.svg',
    vector: 'Marcador de mapa',
    description: 'Veja onde estão as pessoas do seu grupo, receba alertas de chegada e saída e peça ajuda.',
    url: '/gestao',
  },
  {
    title: 'Proteção Pix',
    small: 'Site parceiro',
    image: '/img/icon-pix.svg',
    vector: 'Losango do Pix com escudo',
    description: 'Cobertura financeira contra golpes e transações Pix feitas sob ameaça.',
    url: EXTERNAL.pixProtection,
    external: true,
  },
];

/** 'Você mais seguro': the data and money cards. */
export const SAFER_CARDS = [
  {
    title: 'Seus dados protegidos',
    image: '/img/safer-data.svg',
    vector: 'Pasta de arquivos trancada com cadeado',
    description:
      'Antivírus em tempo real, backup automático na nuvem e VPN para redes Wi-Fi públicas. Se o celular sumir, suas fotos e contatos continuam com você.',
  },
  {
    title: 'Seu dinheiro seguro',
    image: '/img/safer-money.svg',
    vector: 'Carteira com escudo',
    description:
      'Navegador seguro que bloqueia páginas falsas de bancos, alertas contra apps fraudulentos e a Proteção Pix para transações feitas sob golpe.',
  },
] as const;
