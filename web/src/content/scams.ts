// The spec's scam card: title, image, vector, description.

export interface ScamCard {
  title: string;
  image: string;
  vector: string;
  description: string;
}

export const SCAM_CARDS: readonly ScamCard[] = [
  {
    title: 'Phishing',
    image: '/img/scam-phishing.svg',
    vector: 'Anzol sobre um envelope de e-mail',
    description:
      'E-mails e sites falsos que imitam bancos e lojas para roubar senhas e dados do cartão. Desconfie de urgência e nunca digite sua senha depois de clicar em um link recebido.',
  },
  {
    title: 'Smishing',
    image: '/img/scam-smishing.svg',
    vector: 'Celular com uma mensagem SMS de alerta',
    description:
      'É o phishing por SMS: mensagens sobre entregas, multas ou prêmios com links perigosos. Empresas sérias não pedem dados nem códigos por SMS.',
  },
  {
    title: 'Aplicativos fraudulentos',
    image: '/img/scam-apps.svg',
    vector: 'Ícone de aplicativo com um sinal de perigo',
    description:
      'Apps que se passam por ferramentas úteis para espionar o celular ou roubar dados. Baixe apenas das lojas oficiais e confira o desenvolvedor e as permissões pedidas.',
  },
  {
    title: 'Golpe do WhatsApp',
    image: '/img/scam-whatsapp.svg',
    vector: 'Balão de conversa com um cadeado aberto',
    description:
      'Golpistas clonam contas ou usam a foto de um parente para pedir dinheiro. Ative a verificação em duas etapas e confirme por ligação antes de fazer qualquer Pix.',
  },
];
