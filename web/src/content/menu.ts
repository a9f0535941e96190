import { EXTERNAL } from './company';

// The spec's menu item entity: title, subTitle, image, url, openNewtab, subMenu.
export interface MenuItem {
  title: string;
  subTitle?: string;
  image?: string;
  url?: string;
  openNewtab?: boolean;
  subMenu?: readonly MenuItem[];
}

export const PRODUCTS_MENU: readonly MenuItem[] = [
  {
    title: 'EXA Segurança',
    subTitle: 'Antivírus, VPN e navegação segura',
    image: '/img/icon-seguranca.svg',
    url: '/seguranca',
  },
  {
    title: 'EXA Cloud',
    subTitle: 'Backup de fotos, vídeos e arquivos',
    image: '/img/icon-cloud.svg',
    url: '/cloud',
  },
  {
    title: 'Gestão Digital',
    subTitle: 'Localização da família em tempo real',
    image: '/img/icon-gestao.svg',
    url: '/gestao',
  },
  {
    title: 'Proteção Pix',
    subTitle: 'Seguro contra golpes no Pix',
    image: '/img/icon-pix.svg',
    url: EXTERNAL.pixProtection,
    openNewtab: true,
  },
];

export const MAIN_MENU: readonly MenuItem[] = [
  { title: 'Início', url: '/' },
  { title: 'Produtos', subMenu: PRODUCTS_MENU },
  { title: 'Perguntas Frequentes', url: '/faq' },
  { title: 'Contato', url: '/contato' },
];

export const SOCIAL_LINKS = [
  { name: 'Instagram', url: EXTERNAL.instagram, icon: 'instagram' },
  { name: 'LinkedIn', url: EXTERNAL.linkedin, icon: 'linkedin' },
] as const;
