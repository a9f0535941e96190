// Feature sections of the product pages (/seguranca, /cloud, /gestao).

export interface FeatureSection {
  id: string;
  title: string;
  description: string;
  image: string;
  alt: string;
  bullets?: readonly string[];
}

export const SECURITY_FEATURES: readonly FeatureSection[] = [
  {
    id: 'antivirus',
    title: 'Antivírus que trabalha por você',
    description:
      'Analisa aplicativos e arquivos em tempo real e bloqueia vírus, spyware e ransomware antes que eles causem estrago.',
    image: '/img/feature-antivirus.svg',
    alt: 'Tela do app EXA Segurança no celular: seu celular está protegido, 128 apps analisados e uma ameaça bloqueada',
    bullets: ['Verificação automática de novos apps', 'Atualizações diárias da base de ameaças'],
  },
  {
    id: 'protecao-de-aplicativos',
    title: 'Proteção de aplicativos',
    description:
      'Avisa quando um app pede permissões demais ou se comporta como um aplicativo fraudulento, e mostra como removê-lo.',
    image: '/img/feature-apps.svg',
    alt: 'Tela do app EXA Segurança: banco, mensagens e galeria pedem senha ao abrir',
  },
  {
    id: 'navegador-seguro',
    title: 'Navegador seguro',
    description:
      'Bloqueia páginas falsas de bancos e lojas, links de phishing e downloads perigosos enquanto você navega.',
    image: '/img/feature-browser.svg',
    alt: 'Tela do navegador seguro do app: um site que imita um banco é bloqueado, com o botão Voltar com segurança',
  },
  {
    id: 'limpeza-e-bateria',
    title: 'Mais espaço e mais bateria',
    description:
      'Encontra arquivos duplicados, caches e downloads esquecidos para liberar espaço, e identifica apps que gastam bateria à toa.',
    image: '/img/feature-cleanup.svg',
    alt: 'Tela de limpeza do app: 2,4 GB liberados de arquivos temporários, fotos repetidas e apps sem uso, e mais horas de bateria',
  },
  {
    id: 'vpn-e-bloqueio',
    title: 'VPN e bloqueio de apps',
    description:
      'Navegue com a conexão criptografada em redes Wi-Fi públicas e proteja apps como banco e galeria com senha ou digital.',
    image: '/img/feature-vpn.svg',
    alt: 'Tela da VPN do app: VPN ativada e conexão protegida no Wi-Fi público',
    bullets: ['Android 9 ou superior e iOS 15 ou superior', 'Computador: Windows 7 ou mais recente e Mac'],
  },
];

export const CLOUD_FEATURES: readonly FeatureSection[] = [
  {
    id: 'fotos-e-videos',
    title: 'Suas fotos e vídeos em qualquer lugar',
    description:
      'O backup é automático: tire a foto no celular e veja no computador ou no tablet. Se trocar de aparelho, é só entrar na conta.',
    image: '/img/cloud-photos.svg',
    alt: 'Tela do app EXA Cloud: galeria de fotos com o backup concluído',
  },
  {
    id: 'musicas-offline',
    title: 'Playlists para ouvir offline',
    description:
      'Guarde suas músicas na nuvem, monte playlists e baixe para ouvir sem internet, no ônibus ou no avião.',
    image: '/img/cloud-music.svg',
    alt: 'Tela do app EXA Cloud: playlist Viagem de férias disponível offline',
  },
  {
    id: 'compartilhar',
    title: 'Compartilhe do seu jeito',
    description: 'Envie álbuns e arquivos por rede social, e-mail ou link, sem ocupar espaço de quem recebe.',
    image: '/img/cloud-share.svg',
    alt: 'Tela do app EXA Cloud: compartilhar um álbum por link, e-mail ou redes sociais',
  },
];

export const MANAGEMENT_FEATURES: readonly FeatureSection[] = [
  {
    id: 'localizacao-em-tempo-real',
    title: 'Localização em tempo real',
    description: 'Veja no mapa onde está cada convidado do seu grupo familiar, com a hora da última atualização.',
    image: '/img/gestao-location.svg',
    alt: 'Tela do app EXA Gestão: mapa com onde está cada pessoa da família',
  },
  {
    id: 'areas-favoritas',
    title: 'Áreas favoritas',
    description:
      'Cadastre casa, escola e trabalho e receba um alerta quando alguém do grupo entra ou sai de uma dessas áreas.',
    image: '/img/gestao-areas.svg',
    alt: 'Tela do app EXA Gestão: a área favorita Escola avisa quando a filha chega e sai',
  },
  {
    id: 'pedir-ajuda',
    title: 'Peça ajuda com um toque',
    description: 'Em uma emergência, o botão de ajuda avisa todo o grupo na hora e envia a sua localização.',
    image: '/img/gestao-help.svg',
    alt: 'Tela do app EXA Gestão: botão Pedir ajuda que avisa três contatos com a localização',
  },
];
