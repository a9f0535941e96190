// The desktop download's client machine. Its `panel` region mirrors the Rust projector
// (events/src/flows/download): it moves on the domain events the server returns, and the
// shared vectors (tests/vectors/download/panels.json) hold both to the same panels. The
// `request` and `live` regions are the ones every attempt machine shares
// (lib/attempts/regions.ts): `request` starts the attempt on arrival and sends one command at a
// time, `live` follows the attempt's stream. The visitor's fields are held here too.

import { and, assign, enqueueActions, setup, stateIn, type SnapshotFrom } from 'xstate';
import { AttemptError } from '../../lib/attempts/api';
import {
  attemptActions,
  attemptDelays,
  attemptGuards,
  bootState,
  commandActor,
  followActor,
  liveStates,
  requestStates,
  resumeActor,
  resumingState,
  sendOrShow,
} from '../../lib/attempts/regions';
import type { CommandInput as AttemptCommandInput } from '../../lib/attempts/regions';
import { CANCELLED_MESSAGE } from '../../lib/attempts/cancelled';
import { installerUrl, saveFile } from './installer';
import { checkCode, checkPhone } from './rules';
import { GENERIC_FAILURE, REMOVAL_FAILURE } from './texts';
import {
  DOWNLOAD_FLOW,
  isDomainEventType,
  type DownloadCommand,
  type DownloadContext,
  type DownloadEvent,
  type Field,
  type Pending,
  type StartInput,
} from './types';

/** The spec's resend countdown: 'Reenviar código' comes back this long after a code was sent. */
export const RESEND_SECONDS = 90;
/** The spec's snackbars close by themselves after 4 s. */
export const SNACKBAR_MS = 4000;

export type CommandInput = AttemptCommandInput<DownloadCommand>;
export type { CommandOutput } from '../../lib/attempts/regions';

const GENERIC_STEPS: readonly Pending[] = ['find_user', 'list_partners', 'request_download', 'list_devices'];

/** Typing in these clears the refusal about them; choosing another partner card does not. */
const TYPED_FIELDS: readonly Field[] = ['phone', 'code'];

type Ev<T extends DownloadEvent['type']> = Extract<DownloadEvent, { type: T }>;

/** Every domain event first ends the wait it answered and clears the previous snackbar. */
const settled = { pending: null, snackbar: null } as const;

// Transitions several domain events share.
/** A failure: the generic snackbar on `target`. */
const failTo = <T extends string>(target: T) =>
  ({ target, actions: ['settle', { type: 'showSnackbar', params: GENERIC_FAILURE }] }) as const;
/** A step that gave up while the panel waited on one of `steps`: the generic snackbar on `target`. */
const gaveUp = <T extends string>(steps: readonly Pending[], target: T) =>
  ({ guard: { type: 'gaveUpOn', params: steps }, ...failTo(target) }) as const;
/** The server goes on with `step`: the panel waits for it. */
const waitFor = <S extends Pending>(step: S) => ({ actions: ['settle', { type: 'wait', params: step }] }) as const;

/**
 * An `enqueueActions` that names no other action, guard, actor or delay, so its type does not
 * depend on the machine's (parameterised actions beside it would leave their params `unknown`).
 */
function enqueueing<P = undefined>(
  body: Parameters<typeof enqueueActions<DownloadContext, DownloadEvent, P, DownloadEvent, never, never, never, never, never>>[0],
) {
  return enqueueActions<DownloadContext, DownloadEvent, P, DownloadEvent, never, never, never, never, never>(body);
}

/** Shows `message` in the snackbar, which closes by itself after SNACKBAR_MS. */
function snackbar(
  context: DownloadContext,
  enqueue: {
    assign: (values: Partial<DownloadContext>) => void;
    raise: (event: DownloadEvent, options: { delay: number }) => void;
  },
  message: string,
) {
  const id = context.snackbarSeq + 1;
  enqueue.assign({ snackbar: { id, message }, snackbarSeq: id });
  enqueue.raise({ type: 'SNACKBAR_TIMEOUT', id }, { delay: SNACKBAR_MS });
}

export const downloadMachine = setup({
  types: {
    context: {} as DownloadContext,
    events: {} as DownloadEvent,
    // `void`, not `undefined`, which inference drops: without input the machine starts nothing.
    input: {} as StartInput | void,
  },
  actors: {
    command: commandActor<DownloadCommand>(DOWNLOAD_FLOW),
    follow: followActor<DownloadEvent>(),
    resume: resumeActor(),
  },
  delays: attemptDelays,
  guards: {
    ...attemptGuards,
    autostart: ({ context }) => context.start !== null,
    /** The attempt exists and no command is on its way. */
    ready: and([stateIn({ request: 'idle' }), ({ context }) => context.attemptId !== null]),
    /** The start is not in yet (on its way, or waiting in line): a submit waits for it. */
    beforeStart: ({ context }) => context.attemptId === null && context.start !== null,
    phoneQueued: ({ context }) => context.phoneQueued,
    phoneValid: ({ context }) => checkPhone(context.phone).valid,
    codeReady: ({ context }) => checkCode(context.code).valid && !context.codeError && context.field !== 'code',
    partnerChosen: ({ context }) => context.partner !== null,
    confirming: ({ context }) => context.confirmDevice !== null,
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
    ...attemptActions<DownloadContext, DownloadEvent>({
      isDomainEvent: isDomainEventType,
      fieldOf: (field) => field as Field | null,
    }),
    /**
     * A refusal with a field shows under that field; another refusal (the flow's rule, or an
     * abuse limit's 429/403) in the snackbar; anything else, and any failed start, is the
     * spec's generic failure.
     */
    requestFailed: enqueueing(({ context, event, enqueue }) => {
      const error = (event as unknown as { error: unknown }).error;
      const known = context.outgoing?.type !== 'start' && error instanceof AttemptError ? error : null;
      enqueue.assign({ phoneQueued: false });
      if (known && known.status === 422 && known.field) {
        enqueue.assign({ error: known.message, field: known.field as Field });
        return;
      }
      const refused = known !== null && [403, 422, 429].includes(known.status);
      snackbar(context, enqueue, refused ? known.message : GENERIC_FAILURE);
    }),
    settle: assign(settled),
    clearSnackbar: assign({ snackbar: null }),
    wait: assign((_, step: Pending) => ({ pending: step })),
    showSnackbar: enqueueing<string>(({ context, enqueue }, message) => snackbar(context, enqueue, message)),
    startResendCountdown: assign({ resendAt: () => Date.now() + RESEND_SECONDS * 1000, codeError: false }),
    saveInstaller: ({ context }) => {
      if (context.attemptId) saveFile(installerUrl(context.attemptId, context.downloads));
    },
    typed: assign(({ context, event }) => {
      if (event.type !== 'FIELD_CHANGED') return {};
      const clears = context.field === event.field && TYPED_FIELDS.includes(event.field);
      return {
        [event.field]: event.value,
        ...(clears ? { error: null, field: null } : {}),
        codeError: event.field === 'code' ? false : context.codeError,
        // A changed number is the visitor's to send again.
        phoneQueued: event.field === 'phone' ? false : context.phoneQueued,
      };
    }),
    prepareStart: assign(({ context }) => ({
      outgoing: { type: 'start', os: context.start?.os ?? '', browser: context.start?.browser ?? '' } as DownloadCommand,
    })),
    /** Sends a command; a refusal about a field is cleared first. */
    sendCommand: enqueueing<DownloadCommand>(({ enqueue }, command) =>
      sendOrShow<DownloadContext>(enqueue, { command }),
    ),
    sendPhone: enqueueing(({ context, enqueue }) =>
      sendOrShow<DownloadContext>(enqueue, { command: { type: 'submit_phone', phone: context.phone } }),
    ),
    removeDevice: enqueueing(({ context, enqueue }) => {
      sendOrShow<DownloadContext>(enqueue, { command: { type: 'remove_device', device_id: context.confirmDevice ?? '' } });
      enqueue.assign({ confirmDevice: null });
    }),
  },
}).createMachine({
  id: 'download',
  type: 'parallel',
  context: ({ input }) => ({
    start: input || null,
    resumeId: (input && input.resume) || null,
    replayed: false,
    attemptId: null,
    version: 0,
    error: null,
    field: null,
    outgoing: null,
    queueUntil: null,
    phone: (input && input.phone) || '',
    code: '',
    partner: null,
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
    phoneQueued: false,
  }),
  on: {
    'server.events': { actions: 'applyServerEvents' },
    FIELD_CHANGED: { actions: 'typed' },
    DISCONNECT: { actions: assign({ confirmDevice: ({ event }) => event.deviceId }) },
    CONFIRM_NO: { actions: assign({ confirmDevice: null }) },
    CONFIRM_YES: { guard: and(['ready', 'confirming']), actions: 'removeDevice' },
    DISMISS: { actions: 'clearSnackbar' },
    SNACKBAR_TIMEOUT: {
      guard: ({ context, event }) => context.snackbar?.id === event.id,
      actions: 'clearSnackbar',
    },
  },
  states: {
    panel: {
      initial: 'phone_entry',
      // Domain events are handled here, not at the root: a root transition into a panel
      // would also re-enter the request and live regions and lose the attempt.
      on: {
        'download.started': { target: '.phone_entry', actions: 'settle' },
        'phone.submitted': {
          actions: ['settle', assign({ maskedPhone: ({ event }) => event.data.masked }), { type: 'wait', params: 'send_code' }],
        },
        'code.sent': { target: '.code_entry', actions: ['settle', 'startResendCountdown', assign({ code: '' })] },
        'code.resent': { target: '.code_entry', actions: ['settle', 'startResendCountdown'] },
        'code.resend_requested': waitFor('resend_code'),
        'code.send_failed': [
          { guard: { type: 'pendingIs', params: 'resend_code' }, ...failTo('.code_entry') },
          failTo('.phone_entry'),
        ],
        'code.submitted': {
          actions: ['settle', assign({ codeError: false }), { type: 'wait', params: 'confirm_code' }],
        },
        'code.confirmed': waitFor('find_user'),
        'code.rejected': { actions: ['settle', assign({ codeError: true })] },
        'user.found': waitFor('list_partners'),
        'user.not_found': { target: '.user_not_found', actions: 'settle' },
        'user.lookup_failed': failTo('.download_error'),
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
            actions: ['settle', assign({ partners: ({ event }) => event.data.partners, partner: null })],
          },
        ],
        'partners.failed': failTo('.download_error'),
        'partner.chosen': waitFor('request_download'),
        'download.granted': {
          target: '.download_done',
          actions: [
            'settle',
            assign({ downloads: ({ context }) => context.downloads + 1 }),
            // Not again when the page is read back: the visitor has the file; 'clique aqui' asks again.
            enqueueActions(({ context, enqueue }) => {
              if (!context.replayed) enqueue('saveInstaller');
            }),
          ],
        },
        'licences.full': waitFor('list_devices'),
        'plan.without_antivirus': { target: '.plan_without_antivirus', actions: 'settle' },
        'download.failed': failTo('.download_error'),
        'download.retry_requested': waitFor('request_download'),
        'devices.listed': {
          target: '.licences_in_use',
          actions: ['settle', assign({ devices: ({ event }) => event.data.devices })],
        },
        'devices.failed': failTo('.download_error'),
        'device.removal_requested': waitFor('remove_device'),
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
            assign({
              maskedPhone: null,
              codeError: false,
              partners: [],
              devices: [],
              resendAt: null,
              confirmDevice: null,
            }),
          ],
        },
        'step.gave_up': [
          gaveUp(['resend_code'], '.code_entry'),
          gaveUp(['send_code'], '.phone_entry'),
          gaveUp(['confirm_code'], '.code_entry'),
          gaveUp(GENERIC_STEPS, '.download_error'),
          {
            guard: { type: 'gaveUpOn', params: ['remove_device'] },
            target: '.licences_in_use',
            actions: ['settle', { type: 'showSnackbar', params: REMOVAL_FAILURE }],
          },
          // A give-up for a step nobody waits for: the wait goes on.
          { actions: 'clearSnackbar' },
        ],
        // Support ended the attempt: no wait, and the message stays until the visitor leaves.
        'attempt.cancelled': { actions: ['settle', assign({ error: CANCELLED_MESSAGE })] },
        // 'Tentar novamente' (user not found, download error).
        RESTART: { guard: 'ready', actions: { type: 'sendCommand', params: { type: 'restart' } } },
      },
      states: {
        phone_entry: {
          // The phone pressed for before the start was in goes once it is (issue 30's line).
          always: {
            guard: and(['phoneQueued', 'ready', 'phoneValid']),
            actions: [assign({ phoneQueued: false }), 'sendPhone'],
          },
          on: {
            SUBMIT: [
              {
                guard: and(['ready', 'phoneValid']),
                actions: 'sendPhone',
              },
              { guard: and(['beforeStart', 'phoneValid']), actions: assign({ phoneQueued: true }) },
            ],
          },
        },
        code_entry: {
          on: {
            SUBMIT: {
              guard: and(['ready', 'codeReady']),
              actions: { type: 'sendCommand', params: ({ context }) => ({ type: 'submit_code', code: context.code }) },
            },
            RESEND: { guard: 'ready', actions: { type: 'sendCommand', params: { type: 'resend_code' } } },
          },
        },
        user_not_found: {},
        partner_choice: {
          on: {
            SUBMIT: {
              guard: and(['ready', 'partnerChosen']),
              actions: {
                type: 'sendCommand',
                params: ({ context }) => ({ type: 'choose_partner', partner_id: context.partner ?? '' }),
              },
            },
          },
        },
        download_done: {
          on: { RETRY_DOWNLOAD: { guard: 'ready', actions: { type: 'sendCommand', params: { type: 'retry_download' } } } },
        },
        licences_in_use: {},
        plan_without_antivirus: {},
        download_error: {},
      },
    },
    request: {
      initial: 'boot',
      states: { boot: bootState, resuming: resumingState<DownloadContext>(), ...requestStates<DownloadContext>() },
    },
    live: { initial: 'off', states: liveStates<DownloadContext>() },
  },
});

export type DownloadSnapshot = SnapshotFrom<typeof downloadMachine>;
