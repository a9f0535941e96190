// The desktop download's client machine. Its `panel` region mirrors the Rust projector
// (events/src/flows/download): it moves on the domain events the server returns, and the
// shared vectors (tests/vectors/download/panels.json) hold both to the same panels. The `io`
// region starts the attempt, sends commands and follows the server's stream of changes.

import { assign, enqueueActions, fromCallback, fromPromise, setup, type SnapshotFrom } from 'xstate';
import {
  AttemptError,
  sendCommand,
  startAttempt,
  subscribeAttempt,
  type AttemptReply,
} from '../../lib/attempts/api';
import { installerUrl, saveFile } from './installer';
import {
  DOWNLOAD_FLOW,
  isDomainEventType,
  type Command,
  type DomainEvent,
  type DownloadContext,
  type DownloadEvent,
  type UiEvent,
  type Pending,
} from './types';
import { GENERIC_FAILURE, REMOVAL_FAILURE } from './texts';

/** The spec's resend countdown: 'Reenviar código' comes back this long after a code was sent. */
export const RESEND_SECONDS = 90;
/** The spec's snackbars close by themselves after 4 s. */
export const SNACKBAR_MS = 4000;

const GENERIC_STEPS: readonly Pending[] = ['find_user', 'list_partners', 'request_download', 'list_devices'];

type Ev<T extends DownloadEvent['type']> = Extract<DownloadEvent, { type: T }>;

/** Every domain event first ends the wait it answered and clears the previous snackbar. */
const settled = { pending: null, snackbar: null } as const;

export const downloadMachine = setup({
  types: {
    context: {} as DownloadContext,
    events: {} as DownloadEvent,
  },
  actors: {
    startAttempt: fromPromise<AttemptReply, { os: string; browser: string }>(({ input, signal }) =>
      startAttempt(DOWNLOAD_FLOW, { type: 'start', os: input.os, browser: input.browser }, signal),
    ),
    sendCommand: fromPromise<AttemptReply, { id: string; command: Command }>(({ input, signal }) =>
      sendCommand(input.id, input.command as unknown as Record<string, unknown>, signal),
    ),
    followAttempt: fromCallback<UiEvent, { id: string }>(({ input, sendBack }) =>
      subscribeAttempt(input.id, (reply) => sendBack({ type: 'REPLY', reply: reply as AttemptReply })),
    ),
  },
  guards: {
    pendingIs: ({ context }, step: Pending) => context.pending === step,
    gaveUpOn: ({ context, event }, steps: readonly Pending[]) => {
      const step = (event as Ev<'step.gave_up'>).data.step;
      return context.pending !== null && context.pending === step && steps.includes(context.pending);
    },
    noPartner: ({ event }) => (event as Ev<'partners.listed'>).data.partners.length === 0,
    onePartnerWithPlan: ({ event }) => {
      const { partners } = (event as Ev<'partners.listed'>).data;
      return partners.length === 1 && partners[0]?.has_subscription === true;
    },
    onePartner: ({ event }) => (event as Ev<'partners.listed'>).data.partners.length === 1,
  },
  actions: {
    settle: assign(settled),
    clearSnackbar: assign({ snackbar: null }),
    wait: assign((_, step: Pending) => ({ pending: step })),
    showSnackbar: enqueueActions(({ context, enqueue }, message: string) => {
      const id = context.snackbarSeq + 1;
      enqueue.assign({ snackbar: { id, message }, snackbarSeq: id });
      enqueue.raise({ type: 'SNACKBAR_TIMEOUT', id }, { delay: SNACKBAR_MS });
    }),
    applyReply: enqueueActions(({ context, event, enqueue }) => {
      const reply = (event as unknown as { output: AttemptReply }).output ?? (event as Ev<'REPLY'>).reply;
      if (!reply) return;
      let version = context.version;
      for (const domain of reply.events) {
        if (domain.version <= version) continue;
        version = domain.version;
        if (isDomainEventType(domain.type)) {
          enqueue.raise({ type: domain.type, data: domain.data } as DomainEvent);
        }
      }
      enqueue.assign({ attemptId: reply.id, version });
    }),
    commandFailed: enqueueActions(({ context, enqueue, event }) => {
      const error = (event as unknown as { error: unknown }).error;
      if (error instanceof AttemptError && error.status === 422 && error.field) {
        enqueue.assign({ fieldError: { field: error.field, message: error.message } });
        return;
      }
      // A refusal (the flow's rule, or an abuse limit's 429/403) says why; anything else is the
      // spec's generic failure.
      const refused = error instanceof AttemptError && [403, 422, 429].includes(error.status);
      const message = refused ? error.message : GENERIC_FAILURE;
      const id = context.snackbarSeq + 1;
      enqueue.assign({ snackbar: { id, message }, snackbarSeq: id });
      enqueue.raise({ type: 'SNACKBAR_TIMEOUT', id }, { delay: SNACKBAR_MS });
    }),
    startResendCountdown: assign({ resendAt: () => Date.now() + RESEND_SECONDS * 1000, codeError: false }),
    saveInstaller: ({ context }) => {
      if (context.attemptId) saveFile(installerUrl(context.attemptId, context.downloads));
    },
  },
}).createMachine({
  id: 'download',
  type: 'parallel',
  context: {
    attemptId: null,
    version: 0,
    maskedPhone: null,
    pending: null,
    codeError: false,
    partners: [],
    devices: [],
    snackbar: null,
    snackbarSeq: 0,
    downloads: 0,
    resendAt: null,
    confirmDevice: null,
    fieldError: null,
    outgoing: null,
  },
  on: {
    DISCONNECT: { actions: assign({ confirmDevice: ({ event }) => event.deviceId }) },
    CONFIRM_NO: { actions: assign({ confirmDevice: null }) },
    SNACKBAR_CLOSE: { actions: 'clearSnackbar' },
    SNACKBAR_TIMEOUT: {
      guard: ({ context, event }) => context.snackbar?.id === event.id,
      actions: 'clearSnackbar',
    },
    FIELD_EDITED: {
      actions: assign(({ context, event }) => ({
        fieldError: context.fieldError?.field === event.field ? null : context.fieldError,
        codeError: event.field === 'code' ? false : context.codeError,
      })),
    },
  },
  states: {
    panel: {
      initial: 'phone_entry',
      // Domain events are handled here, not at the root: a root transition into a panel
      // would also re-enter the io region and lose the attempt.
      on: {
        'download.started': { target: '.phone_entry', actions: 'settle' },
        'phone.submitted': {
          actions: ['settle', assign({ maskedPhone: ({ event }) => event.data.masked }), { type: 'wait', params: 'send_code' }],
        },
        'code.sent': { target: '.code_entry', actions: ['settle', 'startResendCountdown'] },
        'code.resent': { target: '.code_entry', actions: ['settle', 'startResendCountdown'] },
        'code.resend_requested': { actions: ['settle', { type: 'wait', params: 'resend_code' }] },
        'code.send_failed': [
          {
            guard: { type: 'pendingIs', params: 'resend_code' },
            target: '.code_entry',
            actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
          },
          { target: '.phone_entry', actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }] },
        ],
        'code.submitted': {
          actions: ['settle', assign({ codeError: false }), { type: 'wait', params: 'confirm_code' }],
        },
        'code.confirmed': { actions: ['settle', { type: 'wait', params: 'find_user' }] },
        'code.rejected': { actions: ['settle', assign({ codeError: true })] },
        'user.found': { actions: ['settle', { type: 'wait', params: 'list_partners' }] },
        'user.not_found': { target: '.user_not_found', actions: 'settle' },
        'user.lookup_failed': {
          target: '.download_error',
          actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
        },
        'partners.listed': [
          {
            guard: 'noPartner',
            target: '.plan_without_antivirus',
            actions: ['settle', assign({ partners: [] })],
          },
          {
            guard: 'onePartnerWithPlan',
            actions: ['settle', assign({ partners: ({ event }) => event.data.partners }), { type: 'wait', params: 'request_download' }],
          },
          {
            guard: 'onePartner',
            target: '.download_error',
            actions: [
              'settle',
              assign({ partners: ({ event }) => event.data.partners }),
              { type: 'showSnackbar', params: GENERIC_FAILURE },
            ],
          },
          {
            target: '.partner_choice',
            actions: ['settle', assign({ partners: ({ event }) => event.data.partners })],
          },
        ],
        'partners.failed': {
          target: '.download_error',
          actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
        },
        'partner.chosen': { actions: ['settle', { type: 'wait', params: 'request_download' }] },
        'download.granted': {
          target: '.download_done',
          actions: ['settle', assign({ downloads: ({ context }) => context.downloads + 1 }), 'saveInstaller'],
        },
        'licences.full': { actions: ['settle', { type: 'wait', params: 'list_devices' }] },
        'plan.without_antivirus': { target: '.plan_without_antivirus', actions: 'settle' },
        'download.failed': {
          target: '.download_error',
          actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
        },
        'download.retry_requested': { actions: ['settle', { type: 'wait', params: 'request_download' }] },
        'devices.listed': {
          target: '.licences_in_use',
          actions: ['settle', assign({ devices: ({ event }) => event.data.devices })],
        },
        'devices.failed': {
          target: '.download_error',
          actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
        },
        'device.removal_requested': { actions: ['settle', { type: 'wait', params: 'remove_device' }] },
        'device.removed': {
          actions: [
            'settle',
            assign({ devices: ({ context, event }) => context.devices.filter((d) => d.id !== event.data.device_id) }),
            { type: 'wait', params: 'request_download' },
          ],
        },
        'device.removal_failed': {
          target: '.licences_in_use',
          actions: ['settle', { type: 'showSnackbar', params: REMOVAL_FAILURE }],
        },
        'attempt.restarted': {
          target: '.phone_entry',
          actions: [
            'settle',
            assign({ maskedPhone: null, codeError: false, partners: [], devices: [], resendAt: null, confirmDevice: null }),
          ],
        },
        'step.gave_up': [
          {
            guard: { type: 'gaveUpOn', params: ['resend_code'] },
            target: '.code_entry',
            actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
          },
          {
            guard: { type: 'gaveUpOn', params: ['send_code'] },
            target: '.phone_entry',
            actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
          },
          {
            guard: { type: 'gaveUpOn', params: ['confirm_code'] },
            target: '.code_entry',
            actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
          },
          {
            guard: { type: 'gaveUpOn', params: GENERIC_STEPS },
            target: '.download_error',
            actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }],
          },
          {
            guard: { type: 'gaveUpOn', params: ['remove_device'] },
            target: '.licences_in_use',
            actions: ['settle', { type: 'showSnackbar', params: REMOVAL_FAILURE }],
          },
          // A give-up for a step nobody waits for: the wait goes on.
          { actions: 'clearSnackbar' },
        ],
      },
      states: {
        phone_entry: {},
        code_entry: {},
        user_not_found: {},
        partner_choice: {},
        download_done: {},
        licences_in_use: {},
        plan_without_antivirus: {},
        download_error: {},
      },
    },
    io: {
      initial: 'unstarted',
      states: {
        unstarted: { on: { START: 'starting' } },
        starting: {
          invoke: {
            src: 'startAttempt',
            input: ({ event }) => {
              const start = event as Ev<'START'>;
              return { os: start.os, browser: start.browser };
            },
            onDone: { target: 'live', actions: 'applyReply' },
            onError: { target: 'unstarted', actions: { type: 'showSnackbar', params: GENERIC_FAILURE } },
          },
        },
        live: {
          invoke: {
            src: 'followAttempt',
            input: ({ context }) => ({ id: context.attemptId ?? '' }),
          },
          on: { REPLY: { actions: 'applyReply' } },
          initial: 'ready',
          states: {
            ready: {
              on: {
                COMMAND: {
                  target: 'sending',
                  actions: assign({ fieldError: null, outgoing: ({ event }) => event.command }),
                },
                CONFIRM_YES: {
                  guard: ({ context }) => context.confirmDevice !== null,
                  target: 'sending',
                  actions: assign(({ context }) => ({
                    fieldError: null,
                    outgoing: { type: 'remove_device', device_id: context.confirmDevice ?? '' } as Command,
                    confirmDevice: null,
                  })),
                },
              },
            },
            sending: {
              invoke: {
                src: 'sendCommand',
                input: ({ context }) => ({
                  id: context.attemptId ?? '',
                  // Set by the transition into this state.
                  command: context.outgoing as Command,
                }),
                onDone: { target: 'ready', actions: 'applyReply' },
                onError: { target: 'ready', actions: 'commandFailed' },
              },
            },
          },
        },
      },
    },
  },
});

export type DownloadSnapshot = SnapshotFrom<typeof downloadMachine>;
