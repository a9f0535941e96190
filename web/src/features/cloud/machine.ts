// The cloud activation's client machine. Its `panel` region mirrors the server's projector
// (events/src/flows/cloud/state.rs): it moves on the domain events the server returns, so the
// shared vectors (tests/vectors/cloud/panels.json) give the same panel on both sides. The
// `request` and `live` regions are the ones every attempt machine shares
// (lib/attempts/regions.ts); `live` stops once the account is active.

import { and, assign, enqueueActions, setup, stateIn } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import {
  attemptActions,
  attemptDelays,
  attemptGuards,
  commandActor,
  followActor,
  liveStates,
  requestStates,
  resumeActor,
  resumeBootState,
  resumingState,
  sendOrShow,
} from '../../lib/attempts/regions';
import type { CommandInput as AttemptCommandInput } from '../../lib/attempts/regions';
import { CANCELLED_MESSAGE } from '../../lib/attempts/cancelled';
import { codeCommand, detailsCommand } from './commands';
import { GENERIC_ERROR } from './texts';
import {
  CLOUD_FLOW,
  isDomainEventType,
  type CloudCommand,
  type CloudContext,
  type CloudEvent,
  type Field,
} from './types';

/** Spec section 9: the resend link hides this long after a successful resend. */
export const RESEND_SECONDS = 10;
/** Spec section 9: how long the success modal shows before /cliente/hero. */
export const SUCCESS_MODAL_MS = 3000;
export const SUCCESS_REDIRECT = '/cliente/hero';

/** Steps that run once the code was spent: their failure returns to form 1. */
const AFTER_CODE_STEPS = ['register_serial', 'get_custom_token', 'sign_in'];

export type CommandInput = AttemptCommandInput<CloudCommand>;

export type { CommandOutput } from '../../lib/attempts/regions';
export type { CloudContext, CloudEvent } from './types';

/** What the page hands a new machine: the attempt this tab left, to read back, or what
 * "Começar de novo" keeps of the previous attempt's form. */
export interface CloudInput {
  resume?: string | null;
  phone?: string;
  serial?: string;
}

function messageOf(event: CloudEvent): string {
  const data = 'data' in event ? event.data : null;
  const message = data?.message;
  return typeof message === 'string' && message !== '' ? message : GENERIC_ERROR;
}

function isField(field: string | null): field is Field {
  return field === 'phone' || field === 'serial' || field === 'code';
}

const live = liveStates<CloudContext>();

// Transitions several domain events share.
/** A refusal: its message in the banner, on the same form. */
const FAILED = { actions: 'failed' } as const;
/** A refusal after the code was spent: its message, back on form 1. */
const FAILED_TO_DETAILS = { target: '.details', actions: 'failed' } as const;
/** The account is active (signed in, or the activation's own news). */
const ACTIVE = { target: '.success', actions: 'cleared' } as const;
/** Work the server goes on with: the loader stays. */
const WORKING = { actions: 'working' } as const;

export const cloudMachine = setup({
  types: {
    context: {} as CloudContext,
    events: {} as CloudEvent,
    // `void`, not `undefined`, which inference drops.
    input: {} as CloudInput | void,
  },
  actors: {
    command: commandActor<CloudCommand>(CLOUD_FLOW),
    follow: followActor<CloudEvent>(),
    resume: resumeActor(),
  },
  actions: {
    ...attemptActions<CloudContext, CloudEvent>({
      isDomainEvent: isDomainEventType,
      fieldOf: (field) => (isField(field) ? field : null),
    }),
    /** The page navigates to /cliente/hero; tests leave it empty. */
    redirect: () => {},
    working: assign({ busy: true, error: null, field: null }),
    failed: assign(({ event }) => ({ busy: false, error: messageOf(event), field: null })),
    failedGeneric: assign({ busy: false, error: GENERIC_ERROR, field: null }),
    /** Support ended the attempt: no loader, and the banner says so. */
    cancelled: assign({ busy: false, error: CANCELLED_MESSAGE, field: null }),
    cleared: assign({ busy: false, error: null, field: null }),
    rememberPhone: assign(({ event }) => {
      const masked = 'data' in event ? event.data?.phone_masked : null;
      return { phoneMasked: typeof masked === 'string' ? masked : null };
    }),
    startCountdown: assign({ resendSeconds: RESEND_SECONDS }),
    tick: assign(({ context }) => ({ resendSeconds: context.resendSeconds - 1 })),
    /** Typing keeps the banner but no longer marks the field it was about. */
    typed: assign(({ context, event }) => {
      if (event.type !== 'FIELD_CHANGED') return {};
      return { [event.field]: event.value, field: context.field === event.field ? null : context.field };
    }),
    submitDetails: enqueueActions(({ context, enqueue }) => sendOrShow<CloudContext>(enqueue, detailsCommand(context))),
    submitCode: enqueueActions(({ context, enqueue }) => sendOrShow<CloudContext>(enqueue, codeCommand(context))),
    resend: enqueueActions(({ enqueue }) => sendOrShow<CloudContext>(enqueue, { command: { type: 'resend' } })),
    back: enqueueActions(({ enqueue }) => sendOrShow<CloudContext>(enqueue, { command: { type: 'back' } })),
  },
  delays: attemptDelays,
  guards: {
    ...attemptGuards,
    idle: and([({ context }) => !context.busy, stateIn({ request: 'idle' })]),
    lastSecond: ({ context }) => context.resendSeconds <= 1,
    afterCode: ({ event }) => {
      const step = 'data' in event ? event.data?.step : null;
      return typeof step === 'string' && AFTER_CODE_STEPS.includes(step);
    },
  },
}).createMachine({
  id: 'cloud',
  type: 'parallel',
  // "Começar de novo" opens a new attempt with what the visitor had typed.
  context: ({ input }) => ({
    resumeId: (input && input.resume) || null,
    replayed: false,
    attemptId: null,
    version: 0,
    phone: (input && input.phone) || '',
    serial: (input && input.serial) || '',
    code: '',
    phoneMasked: null,
    busy: false,
    seenSerialRegistered: false,
    error: null,
    field: null,
    resendSeconds: 0,
    outgoing: null,
    queueUntil: null,
  }),
  on: {
    'server.events': { actions: 'applyServerEvents' },
    DISMISS: { actions: 'dismiss' },
    FIELD_CHANGED: { actions: 'typed' },
  },
  states: {
    panel: {
      initial: 'details',
      // Domain events (the server's), mirrored from evolve in events/src/flows/cloud/state.rs.
      on: {
        'details.submitted': { target: '.details', actions: ['working', 'rememberPhone'] },
        'phone.checked': WORKING,
        'phone.refused': FAILED,
        'code.send_failed': FAILED,
        'code.sent': { target: '.code', actions: ['cleared', assign({ code: '' })] },
        'code.resend_requested': WORKING,
        'code.resent': { target: '.code.countdown', actions: ['cleared', 'startCountdown'] },
        'code.resend_failed': FAILED,
        'details.reopened': { target: '.details', actions: 'cleared' },
        'code.submitted': { actions: ['working', assign({ seenSerialRegistered: false })] },
        'code.validated': WORKING,
        'code.rejected': FAILED,
        'serial.registered': { actions: ['working', assign({ seenSerialRegistered: true })] },
        'serial.rejected': FAILED_TO_DETAILS,
        'custom_token.obtained': WORKING,
        'custom_token.failed': FAILED_TO_DETAILS,
        'account.signed_in': ACTIVE,
        'sign_in.failed': FAILED_TO_DETAILS,
        'cloud.activated': ACTIVE,
        'step.gave_up': [
          { guard: 'afterCode', target: '.details', actions: 'failedGeneric' },
          { actions: 'failedGeneric' },
        ],
        'attempt.cancelled': { actions: 'cancelled' },
      },
      states: {
        details: {
          on: { SUBMIT: { guard: 'idle', actions: 'submitDetails' } },
        },
        code: {
          initial: 'link',
          on: {
            SUBMIT: { guard: 'idle', actions: 'submitCode' },
            BACK: { guard: 'idle', actions: 'back' },
          },
          states: {
            link: {
              on: { RESEND: { guard: 'idle', actions: 'resend' } },
            },
            countdown: {
              after: {
                1000: [
                  { guard: 'lastSecond', target: 'link', actions: assign({ resendSeconds: 0 }) },
                  { target: 'countdown', reenter: true, actions: 'tick' },
                ],
              },
            },
          },
        },
        success: {
          // The account is active: later copies of the same news change nothing.
          on: { 'account.signed_in': {}, 'cloud.activated': {} },
          initial: 'opening',
          states: {
            // The 3 s count from when the modal is on screen (SuccessModal says so once it is
            // mounted), not from when the news arrived: a busy phone renders late.
            opening: { on: { MODAL_SHOWN: 'shown' } },
            shown: { after: { [SUCCESS_MODAL_MS]: '#cloud.panel.done' } },
          },
        },
        done: { type: 'final', entry: 'redirect' },
      },
    },
    request: {
      initial: 'boot',
      states: { boot: resumeBootState, resuming: resumingState<CloudContext>(), ...requestStates<CloudContext>() },
    },
    live: {
      initial: 'off',
      states: {
        off: live.off,
        following: {
          ...live.following,
          on: { 'account.signed_in': 'stopped', 'cloud.activated': 'stopped' },
        },
        stopped: {},
      },
    },
  },
});

export type CloudSnapshot = SnapshotFrom<typeof cloudMachine>;
