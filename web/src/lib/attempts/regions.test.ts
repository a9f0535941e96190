// The shared request and live regions in a machine of their own: the first command starts the
// attempt, each server event reaches the panel once and in order, a refusal becomes the banner.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromCallback, fromPromise, raise, setup, waitFor } from 'xstate';
import { AttemptError, NETWORK_MESSAGE } from './api';
import type { AttemptEvent } from './api';
import {
  attemptActions,
  attemptDelays,
  attemptGuards,
  commandActor,
  codesExhausted,
  followActor,
  liveStates,
  requestStates,
  send,
  sendOrShow,
} from './regions';
import type { AttemptContext, AttemptRegionEvent, Command, CommandInput, CommandOutput } from './regions';

type Field = 'phone';

interface TestContext extends AttemptContext<Command, Field> {
  seen: string[];
}

type TestEvent =
  | AttemptRegionEvent
  | { type: 'SEND'; command: Command }
  | { type: 'DISMISS' }
  | { type: 'a.happened' | 'b.happened'; data: Record<string, unknown>; at: string };

const testMachine = setup({
  types: { context: {} as TestContext, events: {} as TestEvent },
  actors: { command: commandActor<Command>('test'), follow: followActor<TestEvent>() },
  actions: {
    ...attemptActions<TestContext, TestEvent>({
      isDomainEvent: (type) => type === 'a.happened' || type === 'b.happened',
      fieldOf: (field) => (field === 'phone' ? field : null),
    }),
    see: assign(({ context, event }) => ({ seen: [...context.seen, event.type] })),
  },
  guards: attemptGuards,
  delays: attemptDelays,
}).createMachine({
  type: 'parallel',
  context: { attemptId: null, version: 0, error: null, field: null, outgoing: null, resumeId: null, replayed: false, queueUntil: null, seen: [] },
  on: {
    'server.events': { actions: 'applyServerEvents' },
    'a.happened': { actions: 'see' },
    'b.happened': { actions: 'see' },
    DISMISS: { actions: 'dismiss' },
    SEND: { actions: [assign(({ event }) => ({ outgoing: event.command })), raise({ type: 'request.send' })] },
  },
  states: {
    request: { initial: 'idle', states: requestStates<TestContext>() },
    live: { initial: 'off', states: liveStates<TestContext>() },
  },
});

const ID = 'test-1';
const wire = (version: number, type: string): AttemptEvent => ({ type, data: null, version, at: '2026-03-02T12:00:00Z' });

function harness(reply: (input: CommandInput) => Promise<CommandOutput>) {
  const calls: CommandInput[] = [];
  const followed: string[] = [];
  const machine = testMachine.provide({
    actors: {
      command: fromPromise<CommandOutput, CommandInput>(({ input }) => {
        calls.push(input);
        return reply(input);
      }),
      follow: fromCallback<TestEvent, { id: string }>(({ input }) => {
        followed.push(input.id);
        return () => {};
      }),
    },
  });
  const actor = createActor(machine).start();
  const idle = () => waitFor(actor, (s) => s.matches({ request: 'idle' }));
  return { actor, calls, followed, idle };
}

afterEach(() => vi.unstubAllGlobals());

describe('attempt regions', () => {
  it('waits in line after a 503 at the start, without a banner, and sends the start again by itself', async () => {
    vi.useFakeTimers();
    try {
      const answers: Array<() => Promise<CommandOutput>> = [
        () => Promise.reject(new AttemptError(503, 'Muitas pessoas estão ativando agora.', null, 4, null, 12)),
        async () => ({ id: ID, events: [] }),
      ];
      const { actor, calls } = harness(() => (answers.shift() ?? answers[0]!)());
      const sentAt = Date.now();
      actor.send({ type: 'SEND', command: { type: 'start', phone: '(11) 97777-1234' } });
      await vi.waitFor(() => expect(actor.getSnapshot().matches({ request: 'waiting' })).toBe(true));
      const waiting = actor.getSnapshot().context;
      expect(waiting.error).toBeNull();
      // Set when the 503 came, between the send and now (waitFor moves the fake clock on).
      expect(waiting.queueUntil! - sentAt).toBeGreaterThanOrEqual(4000);
      expect(waiting.queueUntil! - Date.now()).toBeLessThanOrEqual(6000);
      expect(waiting.queueAhead).toBe(12);
      await vi.advanceTimersByTimeAsync(6000);
      await vi.waitFor(() => expect(actor.getSnapshot().context.attemptId).toBe(ID));
      expect(calls.map((c) => c.command)).toEqual([
        { type: 'start', phone: '(11) 97777-1234' },
        { type: 'start', phone: '(11) 97777-1234' },
      ]);
      expect(actor.getSnapshot().context.queueUntil).toBeNull();
      expect(actor.getSnapshot().context.queueAhead).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows a 503 of a started attempt's command as a failure, not a line", async () => {
    const answers: Array<() => Promise<CommandOutput>> = [
      async () => ({ id: ID, events: [] }),
      () => Promise.reject(new AttemptError(503, 'Estamos com muito movimento agora.', null, 2)),
    ];
    const { actor, idle } = harness(() => answers.shift()!());
    actor.send({ type: 'SEND', command: { type: 'start' } });
    await idle();
    actor.send({ type: 'SEND', command: { type: 'next' } });
    await idle();
    expect(actor.getSnapshot().context.error).toBe('Estamos com muito movimento agora.');
    expect(actor.getSnapshot().context.queueUntil).toBeNull();
  });

  it('sends one command, remembers the attempt and then follows it', async () => {
    const { actor, calls, followed, idle } = harness(async () => ({ id: ID, events: [] }));
    expect(followed).toEqual([]);
    actor.send({ type: 'SEND', command: { type: 'start' } });
    expect(actor.getSnapshot().matches({ request: 'sending' })).toBe(true);
    await idle();
    actor.send({ type: 'SEND', command: { type: 'next' } });
    await idle();
    expect(calls).toEqual([
      { attemptId: null, command: { type: 'start' } },
      { attemptId: ID, command: { type: 'next' } },
    ]);
    expect(actor.getSnapshot().context.attemptId).toBe(ID);
    expect(followed).toEqual([ID]);
  });

  it('raises each domain event once, in version order, from replies and the stream alike', async () => {
    const { actor, idle } = harness(async () => ({ id: ID, events: [wire(2, 'b.happened'), wire(1, 'a.happened')] }));
    actor.send({ type: 'SEND', command: { type: 'start' } });
    await idle();
    actor.send({ type: 'server.events', events: [wire(2, 'b.happened'), wire(3, 'other.thing'), wire(4, 'a.happened')] });
    actor.send({ type: 'server.events', events: [wire(4, 'a.happened')] });
    expect(actor.getSnapshot().context.seen).toEqual(['a.happened', 'b.happened', 'a.happened']);
    expect(actor.getSnapshot().context.version).toBe(4);
  });

  it("shows a refusal's message and known field, or the network message, until dismissed", async () => {
    const failures: unknown[] = [
      new AttemptError(422, 'Telefone inválido.', 'phone'),
      new AttemptError(422, 'Outro campo.', 'email'),
      new Error('offline'),
    ];
    const { actor, idle } = harness(() => Promise.reject(failures.shift()));
    const send = async () => {
      actor.send({ type: 'SEND', command: { type: 'start' } });
      await idle();
      const { error, field } = actor.getSnapshot().context;
      return { error, field };
    };
    expect(await send()).toEqual({ error: 'Telefone inválido.', field: 'phone' });
    expect(await send()).toEqual({ error: 'Outro campo.', field: null });
    expect(await send()).toEqual({ error: NETWORK_MESSAGE, field: null });
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context).toMatchObject({ error: null, field: null });
  });

  it('remembers the limit that refused a command: codes refused for good stay so after a dismiss', async () => {
    const failures: unknown[] = [
      new AttemptError(429, 'Máximo de tentativas excedido.', null, null, 'wrong_codes'),
      new AttemptError(422, 'Outro erro.', null),
    ];
    const { actor, idle } = harness(() => Promise.reject(failures.shift()));
    expect(codesExhausted(actor.getSnapshot().context)).toBe(false);
    actor.send({ type: 'SEND', command: { type: 'resend_code' } });
    await idle();
    expect(codesExhausted(actor.getSnapshot().context)).toBe(true);
    actor.send({ type: 'DISMISS' });
    actor.send({ type: 'SEND', command: { type: 'submit_code' } });
    await idle();
    expect(codesExhausted(actor.getSnapshot().context)).toBe(true);
  });

  it("starts the flow's attempt with the first command and sends the next ones to it", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        urls.push(url);
        return new Response(JSON.stringify({ id: ID, flow: 'test', version: 0, events: [], view: {} }), { status: 200 });
      }),
    );
    const command = commandActor<Command>('test');
    const run = (input: CommandInput) =>
      new Promise((resolve, reject) => {
        const actor = createActor(command, { input });
        actor.subscribe({ complete: () => resolve(actor.getSnapshot().output), error: reject });
        actor.start();
      });
    expect(await run({ attemptId: null, command: { type: 'start' } })).toEqual({ id: ID, events: [] });
    await run({ attemptId: ID, command: { type: 'next' } });
    expect(urls).toEqual(['/api/attempts', `/api/attempts/${ID}/commands`]);
  });
});

describe('send and sendOrShow', () => {
  function recorder() {
    const assigned: Partial<TestContext>[] = [];
    const raised: string[] = [];
    return {
      assigned,
      raised,
      enqueue: {
        assign: (values: Partial<TestContext>) => assigned.push(values),
        raise: (event: { type: 'request.send' }) => raised.push(event.type),
      },
    };
  }

  it('sends a built command with the message cleared', () => {
    const r = recorder();
    sendOrShow<TestContext>(r.enqueue, { command: { type: 'next' } });
    expect(r.assigned).toEqual([{ error: null, field: null, outgoing: { type: 'next' } }]);
    expect(r.raised).toEqual(['request.send']);
  });

  it('shows why a command cannot be sent, and sends nothing', () => {
    const r = recorder();
    sendOrShow<TestContext>(r.enqueue, { error: 'Número inválido.', field: 'phone' });
    expect(r.assigned).toEqual([{ error: 'Número inválido.', field: 'phone' }]);
    expect(r.raised).toEqual([]);
  });

  it('sends a command with what else the context takes, leaving the message', () => {
    const r = recorder();
    send<TestContext>(r.enqueue, { type: 'resend' }, { seen: [] });
    expect(r.assigned).toEqual([{ seen: [], outgoing: { type: 'resend' } }]);
    expect(r.raised).toEqual(['request.send']);
  });
});
