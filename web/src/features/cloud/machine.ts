// The cloud activation's client machine. Its `panel` region mirrors the server's projector
// (events/src/flows/cloud/state.rs): it moves on the domain events the server returns, so the
// shared vectors (tests/vectors/cloud/panels.json) give the same panel on both sides. The
// `request` and `live` regions are the ones every attempt machine shares
// (lib/attempts/regions.ts); `live` stops once the account is active.

import { and, assign, not, raise, setup, stateIn } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import {
  attemptActions,
  attemptGuards,
  commandActor,
  followActor,
  liveStates,
  requestStates,
} from '../../lib/attempts/regions';
import type { AttemptContext, AttemptRegionEvent, CommandInput as AttemptCommandInput } from '../../lib/attempts/regions';
import { parseCode, parsePhone, parseSerial } from './rules';
import { GENERIC_ERROR } from './texts';
import {
  CLOUD_FLOW,
  isDomainEventType,
  type CloudCommand,
  type DomainEvent,
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

export interface CloudContext extends AttemptContext<CloudCommand, Field> {
  phone: string;
  serial: string;
  code: string;
  /** `(11) *****-5678`, from the server. */
  phoneMasked: string | null;
  /** The server is running a step for this attempt. */
  busy: boolean;
  /** The serial was registered in this activation: the 5 s wait before the sign-in is running. */
  seenSerialRegistered: boolean;
  resendSeconds: number;
}

type ClientEvent =
  | { type: 'PHONE_CHANGED'; value: string }
  | { type: 'SERIAL_CHANGED'; value: string }
  | { type: 'CODE_CHANGED'; value: string }
  | { type: 'SUBMIT_DETAILS' }
  | { type: 'SUBMIT_CODE' }
  | { type: 'RESEND' }
  | { type: 'BACK' }
  | { type: 'DISMISS' }
  | AttemptRegionEvent;

export type CloudEvent = ClientEvent | DomainEvent;

function messageOf(event: CloudEvent): string {
  const data = 'data' in event ? event.data : null;
  const message = data?.message;
  return typeof message === 'string' && message !== '' ? message : GENERIC_ERROR;
}

function isField(field: string | null): field is Field {
  return field === 'phone' || field === 'serial' || field === 'code';
}

const live = liveStates<CloudContext>();

export const cloudMachine = setup({
  types: {
    context: {} as CloudContext,
    events: {} as CloudEvent,
  },
  actors: {
    command: commandActor<CloudCommand>(CLOUD_FLOW),
    follow: followActor<CloudEvent>(),
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
    cleared: assign({ busy: false, error: null, field: null }),
    rememberPhone: assign(({ event }) => {
      const masked = 'data' in event ? event.data?.phone_masked : null;
      return { phoneMasked: typeof masked === 'string' ? masked : null };
    }),
    startCountdown: assign({ resendSeconds: RESEND_SECONDS }),
    tick: assign(({ context }) => ({ resendSeconds: context.resendSeconds - 1 })),
  },
  guards: {
    ...attemptGuards,
    idle: and([({ context }) => !context.busy, stateIn({ request: 'idle' })]),
    lastSecond: ({ context }) => context.resendSeconds <= 1,
    afterCode: ({ event }) => {
      const step = 'data' in event ? event.data?.step : null;
      return typeof step === 'string' && AFTER_CODE_STEPS.includes(step);
    },
    phoneInvalid: ({ context }) => 'error' in parsePhone(context.phone),
    serialInvalid: ({ context }) => 'error' in parseSerial(context.serial),
    codeInvalid: ({ context }) => 'error' in parseCode(context.code),
  },
}).createMachine({
  id: 'cloud',
  type: 'parallel',
  context: {
    attemptId: null,
    version: 0,
    phone: '',
    serial: '',
    code: '',
    phoneMasked: null,
    busy: false,
    seenSerialRegistered: false,
    error: null,
    field: null,
    resendSeconds: 0,
    outgoing: null,
  },
  on: {
    'server.events': { actions: 'applyServerEvents' },
    DISMISS: { actions: 'dismiss' },
    PHONE_CHANGED: {
      actions: assign(({ context, event }) => ({ phone: event.value, field: context.field === 'phone' ? null : context.field })),
    },
    SERIAL_CHANGED: {
      actions: assign(({ context, event }) => ({ serial: event.value, field: context.field === 'serial' ? null : context.field })),
    },
    CODE_CHANGED: {
      actions: assign(({ context, event }) => ({ code: event.value, field: context.field === 'code' ? null : context.field })),
    },
  },
  states: {
    panel: {
      initial: 'details',
      // Domain events (the server's), mirrored from evolve in events/src/flows/cloud/state.rs.
      on: {
        'details.submitted': { target: '.details', actions: ['working', 'rememberPhone'] },
        'phone.checked': { actions: 'working' },
        'phone.refused': { actions: 'failed' },
        'code.send_failed': { actions: 'failed' },
        'code.sent': { target: '.code', actions: ['cleared', assign({ code: '' })] },
        'code.resend_requested': { actions: 'working' },
        'code.resent': { target: '.code.countdown', actions: ['cleared', 'startCountdown'] },
        'code.resend_failed': { actions: 'failed' },
        'details.reopened': { target: '.details', actions: 'cleared' },
        'code.submitted': { actions: ['working', assign({ seenSerialRegistered: false })] },
        'code.validated': { actions: 'working' },
        'code.rejected': { actions: 'failed' },
        'serial.registered': { actions: ['working', assign({ seenSerialRegistered: true })] },
        'serial.rejected': { target: '.details', actions: 'failed' },
        'custom_token.obtained': { actions: 'working' },
        'custom_token.failed': { target: '.details', actions: 'failed' },
        'account.signed_in': { target: '.success', actions: 'cleared' },
        'sign_in.failed': { target: '.details', actions: 'failed' },
        'cloud.activated': { target: '.success', actions: 'cleared' },
        'step.gave_up': [
          { guard: 'afterCode', target: '.details', actions: 'failedGeneric' },
          { actions: 'failedGeneric' },
        ],
      },
      states: {
        details: {
          on: {
            SUBMIT_DETAILS: [
              { guard: not('idle') },
              { guard: 'phoneInvalid', actions: assign(({ context }) => ({ error: errorOf(parsePhone(context.phone)), field: 'phone' as const })) },
              { guard: 'serialInvalid', actions: assign(({ context }) => ({ error: errorOf(parseSerial(context.serial)), field: 'serial' as const })) },
              {
                actions: [
                  assign(({ context }) => ({
                    error: null,
                    field: null,
                    outgoing: {
                      type: context.attemptId ? 'submit_details' : 'start',
                      phone: context.phone,
                      serial: context.serial,
                    } as CloudCommand,
                  })),
                  raise({ type: 'request.send' }),
                ],
              },
            ],
          },
        },
        code: {
          initial: 'link',
          on: {
            SUBMIT_CODE: [
              { guard: not('idle') },
              { guard: 'codeInvalid', actions: assign(({ context }) => ({ error: errorOf(parseCode(context.code)), field: 'code' as const })) },
              {
                actions: [
                  assign(({ context }) => ({ error: null, field: null, outgoing: { type: 'submit_code', code: context.code.trim() } as CloudCommand })),
                  raise({ type: 'request.send' }),
                ],
              },
            ],
            BACK: {
              guard: 'idle',
              actions: [assign({ error: null, field: null, outgoing: { type: 'back' } as CloudCommand }), raise({ type: 'request.send' })],
            },
          },
          states: {
            link: {
              on: {
                RESEND: {
                  guard: 'idle',
                  actions: [assign({ error: null, field: null, outgoing: { type: 'resend' } as CloudCommand }), raise({ type: 'request.send' })],
                },
              },
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
          after: { [SUCCESS_MODAL_MS]: 'done' },
        },
        done: { type: 'final', entry: 'redirect' },
      },
    },
    request: { initial: 'idle', states: requestStates<CloudContext>() },
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

function errorOf(parsed: { ok: string } | { error: string }): string | null {
  return 'error' in parsed ? parsed.error : null;
}
