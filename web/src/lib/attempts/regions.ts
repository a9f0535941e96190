// The request and live regions of a flow machine that mirrors an attempt (activation, cloud,
// download), and the visitor's events in the words the three flows share. `request` sends one
// command at a time, the first one starting the attempt; `live` follows the attempt's stream
// once it exists, for the steps the server runs later. Both hand the server's events to
// `applyServerEvents`, which raises each domain event once, in version order, for the machine's
// `panel` region. A flow's machine lists these actors, actions and guards in its `setup` and
// spreads the states into its regions:
//
//   setup({ actors: { command: commandActor<Command>(FLOW), follow: followActor<Event>() },
//           actions: { ...attemptActions<Context, Event>({ isDomainEvent, fieldOf }) },
//           guards: attemptGuards })
//   request: { initial: 'idle', states: requestStates<Context>() }
//     (or initial 'boot' with `boot: bootState` for a flow that starts its attempt on arrival,
//      `boot: resumeBootState` for one that does not; either resumes a `resumeId` first, with
//      `resuming: resumingState` and the actor `resume: resumeActor()`)
//   live: { initial: 'off', states: liveStates<Context>() }
//
// Its actions send a command with `send` or `sendOrShow` (below), inside `enqueueActions`.

import { assign, enqueueActions, fromCallback, fromPromise } from 'xstate';
import type { ActionFunction, EventObject } from 'xstate';
import { AttemptError, followAttemptEvents, getAttempt, NETWORK_MESSAGE, sendCommand, startAttempt } from './api';
import type { AttemptEvent } from './api';
import { placeInLine, queueWaitMs, refusedAtTheDoor } from './queue';

export type Command = { type: string } & Record<string, unknown>;

export interface CommandInput<TCommand extends Command = Command> {
  attemptId: string | null;
  command: TCommand;
}

export interface CommandOutput {
  id: string;
  events: AttemptEvent[];
}

/** The events the regions raise and receive: part of each machine's event type. */
export type AttemptRegionEvent = { type: 'server.events'; events: AttemptEvent[] } | { type: 'request.send' };

/** The visitor typed in (or chose) one of the panel's fields; the machine holds the value. */
export type FieldChanged<TField extends string, TValue = string> = { type: 'FIELD_CHANGED'; field: TField; value: TValue };

/**
 * What a visitor does, in the same words in every flow: change a field, submit the panel's
 * form (the machine knows which command the panel's fields make), ask for the code again,
 * close the message. A flow adds its own (cloud's BACK, download's RESTART, ...).
 */
export type VisitorEvent<TField extends string> =
  | FieldChanged<TField>
  | { type: 'SUBMIT' }
  | { type: 'RESEND' }
  | { type: 'DISMISS' };

/** What the regions read and write in the machine's context. */
export interface AttemptContext<TCommand extends Command = Command, TField extends string = string> {
  attemptId: string | null;
  /** Version of the last server event applied; older or repeated ones are skipped. */
  version: number;
  /** The banner's message. */
  error: string | null;
  /** The field the message is about, if any. */
  field: TField | null;
  /** The command `request.send` sends. */
  outgoing: TCommand | null;
  /** The attempt this tab left, to read back on arrival (its id only; see lib/attempts/resume.ts). */
  resumeId: string | null;
  /**
   * The last new events came from that read, not live: what a panel does once when reached
   * (save the installer, leave for the app store) was already done when the visitor was here.
   */
  replayed: boolean;
  /** While the start waits in line (503 past capacity): when it is tried again (ms epoch). */
  queueUntil: number | null;
  /** While the start waits in line: how many are ahead, when the server said. */
  queueAhead?: number | null;
  /** The abuse limit that last refused a command (the server's `rule`), if any. */
  limitedBy?: string | null;
}

/** The server's rule once the attempt had too many wrong codes: it checks and sends no more. */
export const WRONG_CODES_RULE = 'wrong_codes';

/** No code of this attempt can be checked or sent any more (issue 29): the page says what next. */
export function codesExhausted(context: AttemptContext): boolean {
  return context.limitedBy === WRONG_CODES_RULE;
}

/** Sends one command of `flow`: the first one starts the attempt. */
export function commandActor<TCommand extends Command>(flow: string) {
  return fromPromise<CommandOutput, CommandInput<TCommand>>(async ({ input, signal }) => {
    const reply = input.attemptId
      ? await sendCommand(input.attemptId, input.command, signal)
      : await startAttempt(flow, input.command, signal);
    return { id: reply.id ?? input.attemptId, events: reply.events };
  });
}

/** Follows the attempt's events (see `followAttemptEvents`), sent back as `server.events`. */
export function followActor<TEvent extends EventObject>() {
  return fromCallback<TEvent, { id: string }>(({ sendBack, input }) =>
    followAttemptEvents(input.id, (events) => sendBack({ type: 'server.events', events })),
  );
}

/** The id of the resume read's invocation: its done event is `xstate.done.actor.resume`. */
const RESUME_ID = 'resume';

/**
 * Reads back the attempt this tab left, with all its events: the machine folds them exactly
 * as it folds a command's reply or the stream's, so the panel is the one the visitor left.
 */
export function resumeActor() {
  return fromPromise<CommandOutput, { id: string }>(async ({ input, signal }) => {
    const reply = await getAttempt(input.id, signal);
    return { id: reply.id ?? input.id, events: reply.events };
  });
}

/** The server events carried by `server.events` or by a command's reply (its done event). */
function serverEventsOf(event: EventObject): AttemptEvent[] {
  if (event.type === 'server.events') return (event as Extract<AttemptRegionEvent, { type: 'server.events' }>).events;
  if ('output' in event) return (event.output as CommandOutput).events;
  return [];
}

/** The banner's message and field for a failed request. */
export function failureOf(error: unknown): { error: string; field: string | null; rule: string | null } {
  if (error instanceof AttemptError) return { error: error.message, field: error.field, rule: error.rule };
  return { error: NETWORK_MESSAGE, field: null, rule: null };
}

/**
 * An action usable in any machine whose context and events are `TContext` and `TEvent`: it names
 * no other action, guard, actor or delay, so it fits the machine's `setup`.
 */
type AttemptAction<TContext extends AttemptContext, TEvent extends EventObject> = ActionFunction<
  TContext,
  TEvent,
  TEvent,
  undefined,
  never,
  never,
  never,
  never,
  never
>;

export interface AttemptActionOptions<TField extends string> {
  /** The server event types the machine's `panel` region follows; others only move the version. */
  isDomainEvent: (type: string) => boolean;
  /** The context's field for the field a refusal names. */
  fieldOf: (field: string | null) => TField | null;
}

/** The regions' actions: `applyServerEvents`, `rememberAttempt`, `requestFailed`, `dismiss`, `joinQueue` and `leaveQueue`. */
export function attemptActions<TContext extends AttemptContext, TEvent extends EventObject>({
  isDomainEvent,
  fieldOf,
}: AttemptActionOptions<NonNullable<TContext['field']>>) {
  type Action = AttemptAction<TContext, TEvent>;
  const applyServerEvents: Action = enqueueActions<TContext, TEvent, undefined, TEvent, never, never, never, never, never>(({ context, event, enqueue }) => {
    let version = context.version;
    const replayed = event.type === `xstate.done.actor.${RESUME_ID}`;
    for (const server of [...serverEventsOf(event)].sort((a, b) => a.version - b.version)) {
      if (server.version <= version) continue;
      version = server.version;
      if (isDomainEvent(server.type)) {
        enqueue.raise({ type: server.type, data: server.data ?? {}, at: server.at } as unknown as TEvent);
      }
    }
    // Set before the raised events are handled, so their actions can read it.
    enqueue.assign((version > context.version ? { version, replayed } : { version }) as Partial<TContext>);
  });
  const rememberAttempt: Action = assign<TContext, TEvent, undefined, TEvent, never>(({ context, event }) => {
    const output = 'output' in event ? (event.output as CommandOutput) : null;
    return { attemptId: output?.id ?? context.attemptId } as Partial<TContext>;
  });
  const requestFailed: Action = assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
    const failure = failureOf('error' in event ? event.error : null);
    const limited = failure.rule === null ? {} : { limitedBy: failure.rule };
    return { error: failure.error, field: fieldOf(failure.field), ...limited } as Partial<TContext>;
  });
  const dismiss: Action = assign<TContext, TEvent, undefined, TEvent, never>(() => ({ error: null, field: null }) as Partial<TContext>);
  /** The attempt could not be read back (gone, or another session's): the page starts afresh. */
  const forgetResume: Action = assign<TContext, TEvent, undefined, TEvent, never>(() => ({ resumeId: null }) as Partial<TContext>);
  const joinQueue: Action = assign<TContext, TEvent, undefined, TEvent, never>(({ event }) => {
    const error = 'error' in event ? event.error : null;
    return { queueUntil: Date.now() + queueWaitMs(error), queueAhead: placeInLine(error), error: null, field: null } as Partial<TContext>;
  });
  const leaveQueue: Action = assign<TContext, TEvent, undefined, TEvent, never>(() => ({ queueUntil: null, queueAhead: null }) as Partial<TContext>);
  return { applyServerEvents, rememberAttempt, requestFailed, dismiss, forgetResume, joinQueue, leaveQueue };
}

export const attemptGuards = {
  hasAttempt: ({ context }: { context: AttemptContext }) => context.attemptId !== null,
  resumable: ({ context }: { context: AttemptContext }) => context.resumeId !== null,
  /** The start was refused past capacity: wait in line instead of failing. */
  refusedAtTheDoor: ({ context, event }: { context: AttemptContext; event: EventObject }) =>
    refusedAtTheDoor('error' in event ? event.error : null, context.attemptId),
};

/** The regions' delays: the waiting line's turn. */
export const attemptDelays = {
  queueTurn: ({ context }: { context: AttemptContext }) => Math.max(0, (context.queueUntil ?? 0) - Date.now()),
};

/**
 * The `request` region's `idle`, `sending` and `waiting` states; a machine may add a first state
 * of its own. A start refused past capacity waits in `waiting` (the page shows the waiting line,
 * the visitor's fields stay as they are) and is sent again when its turn comes.
 */
export function requestStates<TContext extends AttemptContext>() {
  return {
    idle: { on: { 'request.send': 'sending' } },
    sending: {
      invoke: {
        src: 'command',
        input: ({ context }: { context: TContext }): CommandInput<NonNullable<TContext['outgoing']>> => ({
          attemptId: context.attemptId,
          command: context.outgoing ?? ({ type: 'noop' } as NonNullable<TContext['outgoing']>),
        }),
        onDone: { target: 'idle', actions: ['rememberAttempt', 'applyServerEvents'] },
        onError: [
          { guard: 'refusedAtTheDoor', target: 'waiting', actions: 'joinQueue' },
          { target: 'idle', actions: 'requestFailed' },
        ],
      },
    },
    waiting: { after: { queueTurn: 'sending' }, exit: 'leaveQueue' },
  } as const;
}

/**
 * The `request` region's first state for a flow that starts its attempt on arrival: with the
 * machine's `autostart` guard, its `prepareStart` action puts the start command in `outgoing`.
 */
export const bootState = {
  always: [
    { guard: 'resumable', target: 'resuming' },
    { guard: 'autostart', target: 'sending', actions: 'prepareStart' },
    { target: 'idle' },
  ],
} as const;

/** The `request` region's first state for a flow that waits for the visitor's first command. */
export const resumeBootState = {
  always: [{ guard: 'resumable', target: 'resuming' }, { target: 'idle' }],
} as const;

/**
 * The `request` region's `resuming` state: reads the attempt back and folds its events; when
 * the server no longer knows it for this session, forgets it and boots as a first visit.
 */
export function resumingState<TContext extends AttemptContext>() {
  return {
    invoke: {
      id: RESUME_ID,
      src: 'resume',
      input: ({ context }: { context: TContext }) => ({ id: context.resumeId ?? '' }),
      onDone: { target: 'idle', actions: ['rememberAttempt', 'applyServerEvents'] },
      onError: { target: 'boot', actions: 'forgetResume' },
    },
  } as const;
}

/** The `live` region's `off` and `following` states: following starts once the attempt exists. */
export function liveStates<TContext extends AttemptContext>() {
  return {
    off: { always: { guard: 'hasAttempt', target: 'following' } },
    following: {
      invoke: { src: 'follow', input: ({ context }: { context: TContext }) => ({ id: context.attemptId ?? '' }) },
    },
  } as const;
}

/** What `send` and `sendOrShow` need of `enqueueActions`' `enqueue`. */
export interface Enqueue<TContext> {
  assign: (values: Partial<TContext>) => void;
  raise: (event: { type: 'request.send' }) => void;
}

/** Sends `command`, with what else the context takes along (`also`). */
export function send<TContext extends AttemptContext>(
  enqueue: Enqueue<TContext>,
  command: NonNullable<TContext['outgoing']>,
  also: Partial<TContext> = {},
) {
  enqueue.assign({ ...also, outgoing: command });
  enqueue.raise({ type: 'request.send' });
}

/** A command made of the panel's fields, or the first field that keeps it from being sent. */
export type Built<TCommand, TField> = { command: TCommand } | { error: string; field: TField };

/** Sends the built command and clears the message, or shows why it cannot be sent beside its field. */
export function sendOrShow<TContext extends AttemptContext>(
  enqueue: Enqueue<TContext>,
  built: Built<NonNullable<TContext['outgoing']>, NonNullable<TContext['field']>>,
) {
  if ('error' in built) {
    enqueue.assign({ error: built.error, field: built.field } as Partial<TContext>);
    return;
  }
  send(enqueue, built.command, { error: null, field: null } as Partial<TContext>);
}
