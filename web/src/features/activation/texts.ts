// Every text of the activation flow the visitor reads, mirrored from
// events/src/flows/activation/messages.rs. Quoted texts are the spec's (sections 5 and 8),
// word for word; `{link}` becomes a link labelled 'aqui' to the contact page (ErrorBanner).

// Spec section 5, "Activation".
export const INVALID_PHONE = 'Por favor, digite um numero de celular válido!';
export const INVALID_CPF_CNPJ = 'Por favor, digite um número de CPF/CNPJ válido!';
export const INVALID_CPF = 'Por favor, digite um número de CPF válido!';
export const INVALID_CNPJ = 'Por favor, digite um número de CNPJ válido!';
export const MISSING_LICENCE = 'Por favor, informe o código recebido!';

// Spec section 8, "Activation".
export const GENERIC = 'Ops, ocorreu um erro. Clique {link} para falar conosco!';
export const CODE_EXPIRED = 'Código inválido ou expirado, solicite um novo código e tente novamente!';
export const CODE_LOCKED = 'Máximo de tentativas excedido. Clique {link} para falar conosco!';
export const CODE_WRONG = 'Código incorreto, verifique a mensagem enviada e tente novamente!';
export const NOT_AUTHORIZED = 'Ops, você não tem esse produto cadastrado. Clique {link} para falar conosco!';
export const SERIAL_NOT_FOUND = 'Ops, esse serial não foi encontrado. Clique {link} para falar conosco!';
export const CUSTOMER_NOT_FOUND =
  'Não identificamos disponibilidade do EXA Segurança para esta assinatura. Por favor entre em contato com a central de atendimento ligando 0800 281 5500.';
export const PARTNER_LOGIN_REFUSED =
  'Não foi possível ativar o EXA Segurança porque não identificamos a sua assinatura. Fale com a Agility pelo telefone 0800 591 0800 ou pelo WhatsApp (11) 99114-0800.';

// Ours: the spec names these rules without a message.
export const INVALID_EMAIL = 'Por favor, digite um e-mail válido!';
/** A licence over the spec's 21 characters (issue 29: said, never cut). */
export const LICENCE_TOO_LONG = 'O código de licença deve ter no máximo 21 caracteres. Confira o código recebido.';
export const TERMS_REQUIRED = 'Para ativar, aceite os Termos de uso e Privacidade.';

// Panel texts (spec section 2, "Security activation screens").
export const DEFAULT_HEADING = 'Você está bem perto de ativar seu EXA Segurança';
export const DEFAULT_BUTTON = 'Validar';
export const CARRIER_BUTTON = 'Continuar';
export const ACTIVATE_BUTTON = 'Ativar';
export const TERMS_LABEL = 'Li e concordo com os Termos de uso e Privacidade';
export const RESEND_LINK = 'Reenviar código';
/** 'segundo' in the singular at 1 (issue 29). */
export const resendingIn = (seconds: number) => `Reenviando em ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}...`;
export const PRODUCT_LIST_HEADING = 'Estes são os serviços disponíveis para seu plano.';
export const REDIRECT_TEXT = 'Aguarde um instante enquanto te direcionamos ...';
/** The way on from panel 5 when the visitor came back to it (not the spec's: it redirects once). */
export const STORE_LINK = 'Baixar o app na loja';
export const STORE_LINK_DESKTOP = 'Conhecer o EXA Segurança';
export const PARTNER_LOGIN_TEXT = 'Clique aqui para ativar a proteção EXA Segurança';

// Ours: one line under each field on why it is asked, and the endings.
export const PHONE_HINT = 'Enviamos um código por SMS para confirmar que este celular é seu.';
export const LICENCE_HINT = 'Está no e-mail ou SMS que você recebeu ao contratar; confirma o seu plano.';
/** The partner-portal page without a usable licence in its link (issue 29). */
export const INCOMPLETE_LINK_HEADING = 'O link de ativação está incompleto';
export const incompleteLinkText = (partner: string) =>
  `Este endereço não trouxe o código de licença do seu plano (ou ele veio com erro), e sem ele não é possível ativar. Abra de novo o link de ativação na área do cliente ${partner} ou peça o link correto ao atendimento ${partner}.`;
export const INCOMPLETE_LINK_SUPPORT = 'Se o link certo também não funcionar, nós ajudamos:';
export const LICENCE_FROM_LINK_HINT = 'Já veio preenchido pelo link do seu provedor; confirma o seu plano.';
export const EMAIL_HINT = 'É o e-mail da sua conta no provedor; com ele identificamos a sua assinatura.';
export const cpfCnpjHint = (partner: string | null) =>
  `Com o CPF ou CNPJ do titular, ${partner ? `a ${partner}` : 'o seu provedor'} confirma que a assinatura é sua.`;
export const ACTIVATED_HEADING = 'Pronto! Seu EXA Segurança está ativado.';
export const PRODUCT_LINES = {
  seguranca: 'Antivírus, navegação segura e proteção dos aplicativos do celular.',
  cloud: 'Backup automático de fotos, vídeos e contatos na nuvem.',
  gestao: 'Localização da família em tempo real e pedido de ajuda.',
} as const;
