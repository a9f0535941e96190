// The cloud flow's messages: the field rules' (events/src/flows/cloud/validation.rs, pinned by
// tests/vectors/cloud/fields.json) and the server's generic one.

export const MESSAGES = {
  phoneRequired: 'Por favor, informe o número do seu celular.',
  phoneInvalid: 'Por favor, digite um numero de celular válido!',
  serialRequired: 'Por favor, informe o número de série.',
  serialTooLong: 'O número de série deve ter no máximo 21 caracteres.',
  codeRequired: 'Por favor, informe o código recebido!',
  codeInvalid: 'O código deve ter 6 dígitos.',
} as const;

/** Shown when the server gave up on a step (events/src/flows/cloud/state.rs GENERIC_ERROR). */
export const GENERIC_ERROR = 'Ops, ocorreu um erro. Tente novamente em instantes.';

/** Spec section 4: the resend countdown, 'segundo' in the singular at 1. */
export const resendingIn = (seconds: number) => `Reenviando em ${seconds} ${seconds === 1 ? 'segundo' : 'segundos'}...`;
