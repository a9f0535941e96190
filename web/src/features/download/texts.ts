// Every text the desktop download shows. Quoted spec texts are copied exactly (spec §2, §5,
// §8, §9); the rest is ours, in Brazilian Portuguese (docs/download-flow.md).

export const TEXTS = {
  pageTitle: 'Antivírus',
  pageDescription: 'Baixe o antivírus EXA Segurança para o seu computador depois de confirmar seu celular por SMS.',
  heading: 'Baixe o EXA Segurança para o seu computador',
  steps: [
    'Adicione seu celular para receber um código de verificação',
    'Digite o código',
    'Baixe o programa',
  ],
  stepsLabel: 'Etapas do download',
  whoTitle: 'Para quem é este download',
  whoText:
    'Para clientes que têm o EXA Segurança incluído no plano de um provedor parceiro: use o celular cadastrado nesse plano. Os planos próprios da EXA (Ultimate, Premium e Gratuito) não trazem o antivírus para computador.',
  forComputer: (os: 'win_pc' | 'mac') =>
    os === 'win_pc'
      ? 'O programa é instalado no computador com Windows 7 ou mais novo; no celular, use o app EXA Segurança da loja.'
      : 'O programa é instalado no Mac; no celular, use o app EXA Segurança da loja.',

  phoneTitle: 'Informe seu celular',
  phoneLabel: 'Número de celular',
  phoneNoteCode: 'Usaremos este número para enviar um código de segurança por SMS.',
  phoneNoteFamily: 'Se você tem um plano família, use o número do titular do plano.',
  continue: 'Continuar',
  /** 'Continuar' pressed while the start waits in line past capacity. */
  waitingTurn: 'Aguardando sua vez…',

  codeTitle: 'Digite o código',
  codeSentTo: (phone: string) => `Enviamos um código de 6 dígitos por SMS para ${phone}.`,
  codeLabel: 'Código de verificação',
  resendIn: (seconds: number) => `Reenviar código em ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}`,
  resend: 'Reenviar código',
  confirmCode: 'Confirmar',

  doneTitle: 'Seu download começou',
  doneText: 'Abra o arquivo antivirus-installer.exe e siga as instruções para instalar o antivírus.',
  doneRetryBefore: 'Se o download não começou, ',
  doneRetryLink: 'clique aqui',
  doneRetryAfter: '.',

  notFoundTitle: 'Usuário não encontrado',
  notFoundText: 'Não encontramos seu número de telefone na nossa base de usuários.',
  downloadErrorTitle: 'Falha ao iniciar o download',
  downloadErrorText: 'Não foi possível completar a operação.',
  contactSupport: 'Falar com o atendimento',
  tryAgain: 'Tentar novamente',

  partnerTitle: 'Escolha o seu plano',
  partnerText: 'Encontramos mais de um plano ligado ao seu número. Selecione o plano que você quer usar.',
  partnerLogoAlt: (name: string) => `Logotipo de ${name}`,

  licencesTitle: 'Todas as suas licenças estão em uso',
  licencesText: 'Para baixar o antivírus neste computador, desconecte primeiro um dos dispositivos abaixo.',
  licencesCounter: 'Licenças em uso',
  lastLogin: 'Último acesso',
  firstLogin: 'Primeiro acesso',
  disconnect: 'Desconectar dispositivo',
  confirmTitle: 'Desconectar dispositivo?',
  confirmText: (name: string) => `O dispositivo ${name} deixará de usar a licença do antivírus.`,
  yes: 'Sim',
  no: 'Não',

  cancelledTitle: 'Tentativa encerrada',

  planTitle: 'Seu plano ainda não inclui o antivírus',
  planText:
    'O antivírus para computador está disponível apenas nos planos de parceiros. Os planos EXA Ultimate, Premium e Gratuito não incluem o antivírus.',

  close: 'Fechar',
  loading: 'Carregando…',
} as const;

// Spec §5 and §8: the field messages (rules.ts) and the snackbars.
export const INVALID_PHONE = 'Número inválido. Verifique novamente.';
export const PHONE_HINT = 'Digite apenas números';
export const INVALID_CODE = 'Código inválido. Verifique o número digitado.';
export const GENERIC_FAILURE = 'Algo não funcionou como esperado, procure nosso atendimento.';
export const REMOVAL_FAILURE = 'Não foi possível remover o dispositivo.';

/** Where the contact-support button goes (the site's contact page, in a new tab). */
export const SUPPORT_PATH = '/contato';
