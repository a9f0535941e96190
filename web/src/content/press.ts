// The spec's press item: name, file, link. The outlets are fictional; each logo is our own
// drawing (public/img/press/), made to imitate no real outlet's name, mark or lettering.

export interface PressItem {
  name: string;
  /** Our drawn logo of the outlet. */
  file: string;
  link: string;
  headline: string;
}

export const PRESS: readonly PressItem[] = [
  {
    name: 'Radar Conexão',
    file: '/img/press/radar-conexao.svg',
    link: 'https://radarconexao.com.br/tecnologia/exa-seguranca-protecao-familia',
    headline: 'EXA amplia proteção digital para famílias brasileiras',
  },
  {
    name: 'Circuito Aberto',
    file: '/img/press/circuito-aberto.svg',
    link: 'https://circuitoaberto.com.br/seguranca/exa-golpes-pix-whatsapp',
    headline: 'Como a EXA ajuda a evitar golpes no Pix e no WhatsApp',
  },
  {
    name: 'Revista Quadrante',
    file: '/img/press/revista-quadrante.svg',
    link: 'https://revistaquadrante.com.br/negocios/exa-parcerias-provedores',
    headline: 'Provedores levam segurança da EXA a milhões de clientes',
  },
  {
    name: 'Pixel Diário',
    file: '/img/press/pixel-diario.svg',
    link: 'https://pixeldiario.com.br/analise/exa-cloud-backup',
    headline: 'Testamos o EXA Cloud: backup simples para o celular',
  },
];
