// The activation template's client machine (one for the six variants). Its `panel` region's
// states are the spec's panels; they move on the domain events the server returns, exactly as
// the Rust projector folds them (events/src/flows/activation/state.rs), which the shared
// vectors (tests/vectors/activation/flows.json) check on both sides. The `request` and `live`
// regions are the ones every attempt machine shares (lib/attempts/regions.ts); a ticker moves
// the clock for the resend countdown.

import { and, assign, enqueueActions, fromCallback, not, setup, stateIn } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import {
  attemptActions,
  attemptDelays,
  attemptGuards,
  commandActor,
  followActor,
  bootState,
  liveStates,
  requestStates,
  resumeActor,
  resumingState,
  send,
  sendOrShow,
  WRONG_CODES_RULE,
} from '../../lib/attempts/regions';
import { CANCELLED_MESSAGE } from '../../lib/attempts/cancelled';
import type { Command } from '../../lib/attempts/regions';
import { afterCode, beforeCode, isStep, isVariant, stepAfter } from './chain';
import type { Step, Variant } from './chain';
import {
  CODE_EXPIRED,
  CODE_LOCKED,
  CODE_WRONG,
  CUSTOMER_NOT_FOUND,
  GENERIC,
  NOT_AUTHORIZED,
  PARTNER_LOGIN_REFUSED,
  SERIAL_NOT_FOUND,
} from './texts';
import { codeCommand, emailCommand, phoneCommand } from './commands';
import {
  isDomainEventType,
  RESEND_SECONDS,
  ACTIVATION_FLOW,
  type ActivationContext,
  type ActivationEvent,
  type Field,
  type Product,
  type StartInput,
  type TypedEvent,
} from './types';

export type { Command, CommandOutput } from '../../lib/attempts/regions';

/** Moves the machine's clock four times a second (the countdown text changes each second). */
export const tickerActor = fromCallback<ActivationEvent>(({ sendBack }) => {
  const timer = setInterval(() => sendBack({ type: 'clock.tick', now: Date.now() }), 250);
  return () => clearInterval(timer);
});

function dataOf(event: ActivationEvent): Record<string, unknown> {
  return 'data' in event && event.data && typeof event.data === 'object' ? event.data : {};
}

function chainVariant(context: ActivationContext): Variant {
  return context.startedVariant ?? context.variant;
}

/**
 * Seconds left on the resend countdown at the machine's clock, rounded up, never above the
 * spec's 60: the countdown starts from the server's time of the resend, and the machine's
 * clock (ticked every 250 ms, and the browser's own) may read a little earlier than that, which
 * showed "Reenviando em 61 segundos...".
 */
export function resendIn(context: ActivationContext): number {
  if (context.resendUntil === null || context.now >= context.resendUntil) return 0;
  return Math.min(RESEND_SECONDS, Math.floor((context.resendUntil - context.now + 999) / 1000));
}

const GRANTED_ORDER: Product[] = ['seguranca', 'cloud', 'gestao'];

function grantedProducts(data: Record<string, unknown>): Product[] {
  const products = (data.products ?? {}) as Record<string, unknown>;
  return GRANTED_ORDER.filter((name) => products[name] === true);
}

/** The context field each text field writes. */
const TYPED: Record<TypedEvent['field'], 'phone' | 'licenceInput' | 'cpfCnpj' | 'email' | 'pincode'> = {
  phone: 'phone',
  licence: 'licenceInput',
  cpf_cnpj: 'cpfCnpj',
  email: 'email',
  pincode: 'pincode',
};

const isTyped = (event: ActivationEvent): event is TypedEvent =>
  event.type === 'FIELD_CHANGED' && event.field !== 'terms';

/** Where a step that failed (or gave up) leaves the visitor: the panel that asked for it. */
const STEP_FAILED = [
  { guard: 'failedLookUp', target: '.partner_login', actions: ['failGeneric', 'offerPartnerLogin'] },
  { guard: 'failedBeforeForm', target: '.partner_login', actions: 'failGeneric' },
  { guard: 'failedOnCode', target: '.code_validation', actions: 'failGeneric' },
  { guard: and(['failedKnownStep', 'telecomForm']), target: '.email', actions: 'failGeneric' },
  { guard: 'failedKnownStep', target: '.send_code', actions: 'failGeneric' },
  { actions: 'failGeneric' },
] as const;

/** A refusal before the code: back to the form the variant asked for (e-mail or phone). */
const backToForm = <A extends string>(action: A) =>
  [
    { guard: 'telecomForm', target: '.email', actions: action },
    { target: '.send_code', actions: action },
  ] as const;

export const activationMachine = setup({
  types: {
    context: {} as ActivationContext,
    events: {} as ActivationEvent,
    input: {} as StartInput,
  },
  actors: {
    command: commandActor<Command>(ACTIVATION_FLOW),
    follow: followActor<ActivationEvent>(),
    resume: resumeActor(),
    ticker: tickerActor,
  },
  actions: {
    ...attemptActions<ActivationContext, ActivationEvent>({
      isDomainEvent: isDomainEventType,
      fieldOf: (field) => field as Field | null,
    }),
    started: assign(({ event }) => {
      const data = dataOf(event);
      const variant = isVariant(data.variant) ? data.variant : null;
      const partnerCode = typeof data.partner_code === 'string' && data.partner_code !== '';
      let pending: Step | null = null;
      if (variant === 'broadband') pending = partnerCode ? 'look_up_customer' : 'prepare_partner_login';
      return {
        startedVariant: variant,
        licence: typeof data.licence === 'string' ? data.licence : null,
        licenceLocked: data.licence_locked === true,
        pending,
        error: null,
        field: null,
        resending: false,
        resendUntil: null,
        products: [],
        planId: null,
        partnerLoginUrl: null,
        returnUrl: typeof data.return_url === 'string' ? data.return_url : null,
        phoneDisplay: null,
      };
    }),
    /** Back on the partner-login panel after a failed look-up: prepare its link if missing. */
    offerPartnerLogin: assign(({ context }) =>
      context.partnerLoginUrl === null && context.returnUrl !== null ? { pending: 'prepare_partner_login' as Step } : {},
    ),
    loginPrepared: assign(({ event }) => {
      const url = dataOf(event).authorize_url;
      return { pending: null, partnerLoginUrl: typeof url === 'string' ? url : null };
    }),
    idle: assign({ pending: null }),
    submitted: assign(({ context, event }) => {
      const display = dataOf(event).phone_display;
      const first = beforeCode(chainVariant(context))[0] ?? 'send_code';
      return {
        phoneDisplay: typeof display === 'string' ? display : null,
        error: null,
        field: null,
        resending: false,
        pending: first,
      };
    }),
    nextAfter: assign(({ context, event }) => {
      const done: Record<string, Step> = {
        'partner.logged_in': 'partner_login',
        'partner.plan_found': 'fetch_account',
        'carrier.token_obtained': 'carrier_token',
        'document.authorized': 'authorize_document',
        'authorization.granted': 'authorize',
        'identity.verified': 'verify_token',
      };
      const step = done[event.type];
      return { pending: step ? stepAfter(chainVariant(context), step) : null };
    }),
    planFound: assign(({ event }) => {
      const plan = dataOf(event).plan_id;
      return { planId: typeof plan === 'string' ? plan : null };
    }),
    codeSent: assign(({ event }) => {
      const resend = dataOf(event).resend === true;
      const at = 'at' in event ? Date.parse(event.at) : NaN;
      return {
        pending: null,
        resending: false,
        resendUntil: resend && !Number.isNaN(at) ? at + RESEND_SECONDS * 1000 : null,
      };
    }),
    resendRequested: assign({ error: null, field: null, resending: true, pending: 'send_code' as Step }),
    codeSubmitted: assign({ error: null, field: null, pending: 'validate_code' as Step }),
    codeValidated: assign(({ context }) => ({ pending: afterCode(chainVariant(context))[0] ?? null })),
    codeRejected: assign(({ context, event }) => {
      const reason = dataOf(event).reason;
      const error = reason === 'expired' ? CODE_EXPIRED : reason === 'locked' ? CODE_LOCKED : CODE_WRONG;
      // The upstream's 406: no code of this attempt will be accepted, so none is offered again.
      const limitedBy = reason === 'locked' ? WRONG_CODES_RULE : (context.limitedBy ?? null);
      return { pending: null, error, field: null, limitedBy };
    }),
    productsListed: assign(({ event }) => ({ pending: null, products: grantedProducts(dataOf(event)) })),
    failCustomer: assign({ pending: null, error: CUSTOMER_NOT_FOUND, field: null }),
    failPartnerLogin: assign({ pending: null, error: PARTNER_LOGIN_REFUSED, field: null }),
    failNotAuthorized: assign({ pending: null, error: NOT_AUTHORIZED, field: null }),
    failSerial: assign({ pending: null, error: SERIAL_NOT_FOUND, field: null }),
    failGeneric: assign({ pending: null, error: GENERIC, field: null, resending: false }),
    /** Support ended the attempt: no loader, and the banner says so. */
    cancelled: assign({ pending: null, error: CANCELLED_MESSAGE, field: null, resending: false }),
    typed: assign(({ event }) => (isTyped(event) ? { [TYPED[event.field]]: event.value, error: null, field: null } : {})),
    ticked: assign(({ event }) => (event.type === 'FIELD_CHANGED' && event.field === 'terms' ? { terms: event.value } : {})),
    prepareStart: assign(({ context }) => ({
      outgoing: {
        type: 'start',
        variant: context.variant,
        licenca: context.start.licenca ?? null,
        code: context.start.code ?? null,
        state: context.start.state ?? null,
        return_url: context.start.returnUrl ?? null,
      },
    })),
    /** The form panels: parsed on this side first (commands.ts), the server parses again. */
    submitPhone: enqueueActions(({ context, enqueue }) =>
      sendOrShow<ActivationContext>(enqueue, phoneCommand(context, chainVariant(context))),
    ),
    submitEmail: enqueueActions(({ context, enqueue }) => sendOrShow<ActivationContext>(enqueue, emailCommand(context))),
    submitCode: enqueueActions(({ context, enqueue }) => sendOrShow<ActivationContext>(enqueue, codeCommand(context))),
    // The banner stays until the server's news: these only send.
    resend: enqueueActions(({ enqueue }) => send<ActivationContext>(enqueue, { type: 'resend_code' }, { pincode: '' })),
    recordRedirect: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'STORE_REDIRECTED') return;
      send<ActivationContext>(enqueue, { type: 'record_store_redirect', platform: event.platform });
    }),
    chooseProduct: enqueueActions(({ event, enqueue }) => {
      if (event.type !== 'PRODUCT_CHOSEN') return;
      send<ActivationContext>(enqueue, { type: 'choose_product', product: event.product, platform: event.platform });
    }),
  },
  delays: attemptDelays,
  guards: {
    ...attemptGuards,
    autostart: ({ context }) => context.start.autostart !== false,
    changedValue: ({ context, event }) => isTyped(event) && event.value !== context[TYPED[event.field]],
    termsField: ({ event }) => event.type === 'FIELD_CHANGED' && event.field === 'terms',
    ready: and([({ context }) => context.pending === null, stateIn({ request: 'idle' })]),
    countingDown: ({ context }) => resendIn(context) > 0,
    telecomForm: ({ context }) => chainVariant(context) === 'telecom',
    broadbandWithCode: ({ event }) => {
      const data = dataOf(event);
      return data.variant === 'broadband' && typeof data.partner_code === 'string' && data.partner_code !== '';
    },
    broadband: ({ event }) => dataOf(event).variant === 'broadband',
    telecom: ({ event }) => dataOf(event).variant === 'telecom',
    resending: ({ context }) => context.resending,
    grantsSomething: ({ event }) => grantedProducts(dataOf(event)).length > 0,
    failedBeforeForm: ({ event }) => {
      const step = dataOf(event).step;
      return step === 'prepare_partner_login' || step === 'look_up_customer';
    },
    failedLookUp: ({ event }) => dataOf(event).step === 'look_up_customer',
    failedOnCode: ({ context, event }) => {
      const step = dataOf(event).step;
      return step === 'validate_code' || (step === 'send_code' && context.resending);
    },
    failedKnownStep: ({ event }) => isStep(dataOf(event).step),
  },
}).createMachine({
  id: 'activation',
  type: 'parallel',
  context: ({ input }) => ({
    variant: input.variant,
    start: input,
    resumeId: input.resume ?? null,
    replayed: false,
    attemptId: null,
    version: 0,
    startedVariant: null,
    pending: null,
    resending: false,
    error: null,
    field: null,
    licence: null,
    licenceLocked: false,
    phoneDisplay: null,
    resendUntil: null,
    products: [],
    planId: null,
    partnerLoginUrl: null,
    returnUrl: null,
    now: Date.now(),
    phone: input.kept?.phone ?? '',
    licenceInput: input.kept?.licenceInput ?? '',
    cpfCnpj: input.kept?.cpfCnpj ?? '',
    email: '',
    pincode: '',
    terms: false,
    outgoing: null,
    queueUntil: null,
  }),
  invoke: { src: 'ticker' },
  on: {
    'server.events': { actions: 'applyServerEvents' },
    'clock.tick': { actions: assign(({ event }) => ({ now: event.now })) },
    DISMISS: { actions: 'dismiss' },
    // Spec section 5: typing clears the error. A mask library re-announcing the same value
    // (on mount, on blur) is not typing.
    // Ticking the terms box is not typing: the message stays.
    FIELD_CHANGED: [
      { guard: 'termsField', actions: 'ticked' },
      { guard: 'changedValue', actions: 'typed' },
    ],
  },
  states: {
    panel: {
      initial: 'starting',
      on: {
        'attempt.started': [
          { guard: 'broadbandWithCode', target: '.send_code', actions: 'started' },
          { guard: 'broadband', target: '.partner_login', actions: 'started' },
          { guard: 'telecom', target: '.email', actions: 'started' },
          { target: '.send_code', actions: 'started' },
        ],
        'partner.login_prepared': { actions: 'loginPrepared' },
        'customer.found': { target: '.send_code', actions: 'idle' },
        'customer.not_found': { target: '.partner_login', actions: ['failCustomer', 'offerPartnerLogin'] },
        'phone.submitted': { actions: 'submitted' },
        'email.submitted': { actions: 'submitted' },
        'partner.logged_in': { actions: 'nextAfter' },
        'partner.login_refused': backToForm('failPartnerLogin'),
        'partner.plan_found': { actions: ['planFound', 'nextAfter'] },
        'carrier.token_obtained': { actions: 'nextAfter' },
        'document.authorized': { actions: 'nextAfter' },
        'document.refused': backToForm('failNotAuthorized'),
        'authorization.refused': backToForm('failNotAuthorized'),
        'code.sent': { target: '.code_validation', actions: 'codeSent' },
        'code.send_failed': [
          { guard: 'resending', target: '.code_validation', actions: 'failGeneric' },
          ...backToForm('failGeneric'),
        ],
        'code.resend_requested': { actions: 'resendRequested' },
        'code.submitted': { actions: 'codeSubmitted' },
        'code.validated': { actions: 'codeValidated' },
        'code.rejected': { target: '.code_validation', actions: 'codeRejected' },
        'authorization.granted': { actions: 'nextAfter' },
        'identity.verified': { actions: 'nextAfter' },
        'packs.fetched': [
          { guard: 'grantsSomething', target: '.product_list', actions: 'productsListed' },
          ...backToForm('failNotAuthorized'),
        ],
        'subscription.created': { target: '.redirect_store', actions: 'idle' },
        'serial.not_found': backToForm('failSerial'),
        // A step that failed for good and one that gave up after its retries land alike.
        'step.failed': STEP_FAILED,
        'step.gave_up': STEP_FAILED,
        'attempt.cancelled': { actions: 'cancelled' },
      },
      states: {
        starting: {},
        partner_login: {},
        send_code: {
          on: { SUBMIT: { guard: 'ready', actions: 'submitPhone' } },
        },
        email: {
          on: { SUBMIT: { guard: 'ready', actions: 'submitEmail' } },
        },
        code_validation: {
          on: {
            // Spec section 4: the validate button is disabled during the countdown.
            SUBMIT: { guard: and(['ready', not('countingDown')]), actions: 'submitCode' },
            RESEND: { guard: and(['ready', not('countingDown')]), actions: 'resend' },
          },
        },
        product_list: {
          on: { PRODUCT_CHOSEN: { guard: stateIn({ request: 'idle' }), actions: 'chooseProduct' } },
        },
        redirect_store: {
          on: { STORE_REDIRECTED: { guard: stateIn({ request: 'idle' }), actions: 'recordRedirect' } },
        },
      },
    },
    request: {
      initial: 'boot',
      states: {
        boot: bootState,
        resuming: resumingState<ActivationContext>(),
        ...requestStates<ActivationContext>(),
      },
    },
    live: { initial: 'off', states: liveStates<ActivationContext>() },
  },
});

export type ActivationSnapshot = SnapshotFrom<typeof activationMachine>;
