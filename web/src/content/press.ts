// The spec's press item: name, file, link. Outlets are fictional and set as text-logos
// (file is the logo's style key), so no third-party artwork ships with the site.

export interface PressItem {
  name: string;
  file: 'serif' | 'sans' | 'mono' | 'condensed';
  link: string;
  headline: string;
}

export const PRESS: readonly PressItem[] = [
  {
    name: 'Jornal do Comércio Digital',
    file: 'serif',
    link: 'https://jornaldocomerciodigital.com.br/tecnologia/exa-seguranca-protecao-familia',
    headline: 'EXA amplia proteção digital para famílias brasileiras',
  },
  {
    name: 'TecMundo Hoje',
    file: 'sans',
    link: 'https://tecmundohoje.com.br/seguranca/exa-golpes-pix-whatsapp',
    headline: 'Como a EXA ajuda a evitar golpes no Pix e no WhatsApp',
  },
  {
    name: 'Revista Conecta',
    file: 'condensed',
    link: 'https://revistaconecta.com.br/negocios/exa-parcerias-provedores',
    headline: 'Provedores levam segurança da EXA a milhões de clientes',
  },
  {
    name: 'Bits & Bytes',
    file: 'mono',
    link: 'https://bitsebytes.com.br/analise/exa-cloud-backup',
    headline: 'Testamos o EXA Cloud: backup simples para o celular',
  },
];
