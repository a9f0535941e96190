// The spec's FAQ group (title, open, content) and item (question, answer, open).
// URLs written in an answer are shown as 'clique aqui' links that open in a new tab.

export interface FaqItem {
  question: string;
  answer: string;
  open?: boolean;
}

export interface FaqGroup {
  title: string;
  open?: boolean;
  content: readonly FaqItem[];
}

export const FAQ_GROUPS: readonly FaqGroup[] = [
  {
    title: 'EXA',
    open: true,
    content: [
      {
        question: 'O que é a EXA?',
        answer:
          'A EXA é uma empresa brasileira de segurança digital. Reunimos em um só lugar o EXA Segurança (antivírus e proteção do celular e do computador), o EXA Cloud (backup na nuvem) e o Gestão Digital (localização da família). Você pode contratar direto com a gente ou pelo seu provedor de internet, operadora, seguradora ou fabricante de computador.',
        open: true,
      },
      {
        question: 'O Hero mudou de nome?',
        answer:
          'Sim. Agora o Hero é EXA Segurança. O aplicativo continua com os mesmos recursos e a sua assinatura não muda. Se você ainda usa a versão antiga, atualize o app pela loja do seu celular. Os detalhes estão no comunicado oficial: https://www.exa.com.br/links?q=anuncio-encerramento',
      },
      {
        question: 'Como falo com o atendimento?',
        answer:
          'O jeito mais rápido é o nosso chat, disponível no ícone do canto da tela em todas as páginas. Para abrir o chat direto, https://www.exa.com.br/atendimento. Se preferir, escreva para contato@exa.com.br.',
      },
      {
        question: 'Onde encontro os termos de uso e a política de privacidade?',
        answer:
          'Os termos de uso e a política de privacidade ficam sempre disponíveis em PDF: https://www.exa.com.br/assets/termos-de-uso-e-privacidade.pdf. Para pedidos sobre seus dados pessoais (acesso, correção ou exclusão), use o portal de privacidade: https://privacidade.exa.com.br',
      },
    ],
  },
  {
    title: 'EXA Segurança',
    content: [
      {
        question: 'O que o EXA Segurança faz?',
        answer:
          'Ele protege o seu celular com antivírus, proteção de aplicativos, navegador seguro, limpeza de armazenamento, economia de bateria, VPN e bloqueio de apps. Também há versão para computadores Windows e Mac.',
        open: true,
      },
      {
        question: 'Quais aparelhos são compatíveis?',
        answer:
          'O app funciona em Android 9 ou superior e em iOS 15 ou superior. A versão para computador funciona no Windows 7 ou mais recente e no macOS.',
      },
      {
        question: 'Meu código de verificação por SMS aparece como inválido. O que faço?',
        answer:
          'O código tem 6 dígitos e vale por 15 minutos. Se ele aparecer como inválido, provavelmente expirou ou foi digitado errado: toque em "Reenviar código" para receber um novo e use sempre o último SMS que chegar. Confira também se o número de telefone informado está correto, com DDD.',
      },
      {
        question: 'Como ativo o EXA Segurança que veio com o meu plano?',
        answer:
          'Abra o link de ativação enviado pelo seu provedor ou acesse a página de ativação, informe o seu celular e, quando pedido, o CPF/CNPJ ou o código da licença. Você receberá um código por SMS para confirmar. Página de ativação: https://www.exa.com.br/seguranca/ativar',
      },
      {
        question: 'Como instalo o antivírus no computador?',
        answer:
          'Acesse a página de download, informe o seu celular e digite o código que enviaremos por SMS. O download do instalador começa em seguida. Para Windows: https://www.exa.com.br/av-desktop/download/win_pc',
      },
      {
        question: 'Apareceu "Todas as suas licenças estão em uso". E agora?',
        answer:
          'Cada plano permite um número de computadores. Na própria página de download, desconecte um dispositivo que você não usa mais e tente de novo.',
      },
    ],
  },
  {
    title: 'EXA Cloud',
    content: [
      {
        question: 'O que é o EXA Cloud?',
        answer:
          'É o backup na nuvem da EXA. Ele guarda fotos, vídeos, músicas, agenda, contatos e arquivos e permite compartilhar tudo por rede social, e-mail ou link.',
      },
      {
        question: 'Quais aparelhos são compatíveis?',
        answer: 'O EXA Cloud funciona em Android 6 ou superior e em iOS 12 ou superior.',
      },
      {
        question: 'O que é enviado na primeira sincronização?',
        answer:
          'Para você começar rápido, a primeira sincronização envia as 5 fotos e os 2 vídeos mais recentes. O restante é enviado aos poucos, de preferência no Wi-Fi.',
      },
      {
        question: 'Posso ter mais de um cofre?',
        answer: 'Não. Cada conta do EXA Cloud tem um único cofre, onde ficam os arquivos que você quer proteger com mais cuidado.',
      },
      {
        question: 'Comprei um computador com EXA Cloud. Como ativo o número de série?',
        answer:
          'Acesse a página de ativação, informe o número de série da etiqueta do computador e o seu celular. O código enviado por SMS vale por 5 minutos. Página de ativação: https://www.exa.com.br/cloud/positivo',
      },
    ],
  },
  {
    title: 'Gestão Digital',
    content: [
      {
        question: 'O que é o Gestão Digital?',
        answer:
          'É o app de localização da família. Você cria um grupo, convida as pessoas e acompanha em tempo real onde cada convidado está.',
      },
      {
        question: 'Como funcionam as áreas favoritas?',
        answer:
          'Cadastre lugares como casa, escola ou trabalho. O app avisa quando alguém do grupo entra ou sai de uma dessas áreas.',
      },
      {
        question: 'Como peço ajuda pelo app?',
        answer:
          'Toque no botão de pedido de ajuda: todas as pessoas do grupo recebem um alerta com a sua localização na hora.',
      },
      {
        question: 'Quais aparelhos são compatíveis?',
        answer:
          'O Gestão Digital funciona em Android 8 ou superior e em iOS 15 ou superior. O código de verificação por SMS vale por 5 minutos.',
      },
    ],
  },
];
