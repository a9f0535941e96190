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
    alt: 'Escudo bloqueando um vírus sobre a tela de um celular',
    bullets: ['Verificação automática de novos apps', 'Atualizações diárias da base de ameaças'],
  },
  {
    id: 'protecao-de-aplicativos',
    title: 'Proteção de aplicativos',
    description:
      'Avisa quando um app pede permissões demais ou se comporta como um aplicativo fraudulento, e mostra como removê-lo.',
    image: '/img/feature-apps.svg',
    alt: 'Grade de aplicativos com um deles destacado como perigoso',
  },
  {
    id: 'navegador-seguro',
    title: 'Navegador seguro',
    description:
      'Bloqueia páginas falsas de bancos e lojas, links de phishing e downloads perigosos enquanto você navega.',
    image: '/img/feature-browser.svg',
    alt: 'Janela de navegador com um cadeado na barra de endereço',
  },
  {
    id: 'limpeza-e-bateria',
    title: 'Mais espaço e mais bateria',
    description:
      'Encontra arquivos duplicados, caches e downloads esquecidos para liberar espaço, e identifica apps que gastam bateria à toa.',
    image: '/img/feature-cleanup.svg',
    alt: 'Indicador de bateria cheia ao lado de uma vassoura',
  },
  {
    id: 'vpn-e-bloqueio',
    title: 'VPN e bloqueio de apps',
    description:
      'Navegue com a conexão criptografada em redes Wi-Fi públicas e proteja apps como banco e galeria com senha ou digital.',
    image: '/img/feature-vpn.svg',
    alt: 'Cadeado sobre o símbolo de Wi-Fi',
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
    alt: 'Fotos saindo do celular em direção a uma nuvem',
  },
  {
    id: 'musicas-offline',
    title: 'Playlists para ouvir offline',
    description:
      'Guarde suas músicas na nuvem, monte playlists e baixe para ouvir sem internet, no ônibus ou no avião.',
    image: '/img/cloud-music.svg',
    alt: 'Fones de ouvido e notas musicais',
  },
  {
    id: 'compartilhar',
    title: 'Compartilhe do seu jeito',
    description: 'Envie álbuns e arquivos por rede social, e-mail ou link, sem ocupar espaço de quem recebe.',
    image: '/img/cloud-share.svg',
    alt: 'Três pessoas conectadas por linhas de compartilhamento',
  },
];

export const MANAGEMENT_FEATURES: readonly FeatureSection[] = [
  {
    id: 'localizacao-em-tempo-real',
    title: 'Localização em tempo real',
    description: 'Veja no mapa onde está cada convidado do seu grupo familiar, com a hora da última atualização.',
    image: '/img/gestao-location.svg',
    alt: 'Mapa com marcadores das pessoas da família',
  },
  {
    id: 'areas-favoritas',
    title: 'Áreas favoritas',
    description:
      'Cadastre casa, escola e trabalho e receba um alerta quando alguém do grupo entra ou sai de uma dessas áreas.',
    image: '/img/gestao-areas.svg',
    alt: 'Casa dentro de um círculo de área demarcada',
  },
  {
    id: 'pedir-ajuda',
    title: 'Peça ajuda com um toque',
    description: 'Em uma emergência, o botão de ajuda avisa todo o grupo na hora e envia a sua localização.',
    image: '/img/gestao-help.svg',
    alt: 'Botão de alerta emitindo um sinal',
  },
];
