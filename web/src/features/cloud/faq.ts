// Questions shown under the cloud activation form (our own text; the spec names the accordion
// and its 'Exibir todos' / 'Exibir menos' control, not its content).

export interface CloudFaqItem {
  question: string;
  answer: string;
}

/** How many questions show before 'Exibir todos'. */
export const FAQ_VISIBLE = 3;

export const CLOUD_FAQ: readonly CloudFaqItem[] = [
  {
    question: 'Onde encontro o número de série do meu computador?',
    answer:
      'O número de série está na etiqueta colada embaixo do notebook ou atrás do computador de mesa, ao lado de "S/N" ou "Número de série". Toque em "Onde encontro o número de série?" para ver um exemplo da etiqueta.',
  },
  {
    question: 'Qual número de celular devo informar?',
    answer:
      'Informe o celular, com DDD, que vai usar para entrar no EXA Cloud. Enviaremos para ele um código de 6 dígitos por SMS.',
  },
  {
    question: 'Meu código não funcionou. O que faço?',
    answer:
      'O código vale por 5 minutos. Se ele expirou ou foi digitado errado, solicite um novo com "Reenviar código" e digite o código da mensagem mais recente.',
  },
  {
    question: 'Não recebi o SMS com o código.',
    answer:
      'Confira se o número está correto e se o celular tem sinal. Você pode pedir um novo código em "Reenviar código"; depois de um reenvio, aguarde a contagem de 10 segundos para pedir outro.',
  },
  {
    question: 'O que ganho ao ativar o número de série?',
    answer:
      'Sua conta do EXA Cloud é ativada: guarde fotos, vídeos, músicas, contatos e arquivos com segurança e acesse de qualquer aparelho.',
  },
  {
    question: 'Já ativei. Como acesso o EXA Cloud?',
    answer:
      'Depois da ativação, entre no aplicativo EXA Cloud ou no site do EXA Cloud com o mesmo número de celular informado aqui.',
  },
];
