// The machine's client side: what it sends, what it refuses before sending, the countdown.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { AttemptError } from '../../lib/attempts/api';
import type { AttemptEvent } from '../../lib/attempts/api';
import { activationMachine } from './machine';
import type { CommandOutput } from './machine';
import type { CommandInput, StartInput } from './types';
import { CODE_EXPIRED, INVALID_CPF, INVALID_PHONE, MISSING_LICENCE, TERMS_REQUIRED } from './texts';
import { viewOf } from './selectors';

const T0 = Date.parse('2026-03-02T12:00:00Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString();

type Reply = AttemptEvent[] | Error;

/** A machine whose commands are recorded and answered from `replies`, in order. */
function harness(input: StartInput, replies: Reply[]) {
  const sent: CommandInput[] = [];
  let version = 0;
  const machine = activationMachine.provide({
    actors: {
      command: fromPromise<CommandOutput, CommandInput>(async ({ input: call }) => {
        sent.push(call);
        const reply = replies.shift() ?? [];
        if (reply instanceof Error) throw reply;
        return { id: 'activation-00000000-0000-0000-0000-000000000001', events: reply };
      }),
      follow: fromCallback(() => () => {}),
      ticker: fromCallback(() => () => {}),
    },
  });
  const actor = createActor(machine, { input }).start();
  const event = (type: string, data: Record<string, unknown>, seconds: number): AttemptEvent => {
    version += 1;
    return { type, data, version, at: at(seconds) };
  };
  return { actor, sent, event };
}

const idle = (actor: ReturnType<typeof harness>['actor']) => waitFor(actor, (s) => s.matches({ request: 'idle' }));

describe('activation machine, client side', () => {
  it('counts the resend down from 60 to 0 even when its clock reads before the server', async () => {
    const h = harness({ variant: 'standard', code: null, returnUrl: '' }, [[]]);
    await idle(h.actor);
    h.actor.send({
      type: 'server.events',
      events: [
        h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0),
        h.event('phone.submitted', { phone: null, phone_display: '(11) *****-4321', licence: 'L' }, 1),
        h.event('code.sent', { resend: false }, 2),
        h.event('code.resend_requested', {}, 3),
        // Recorded 200 ms after the machine's last tick.
        h.event('code.sent', { resend: true }, 4.2),
      ],
    });
    h.actor.send({ type: 'clock.tick', now: T0 + 4_000 });
    expect(viewOf(h.actor.getSnapshot()).resend_in).toBe(60);
    h.actor.send({ type: 'clock.tick', now: T0 + 64_200 });
    expect(viewOf(h.actor.getSnapshot()).resend_in).toBe(0);
  });

  it('starts the attempt with the page query', async () => {
    const { actor, sent } = harness({ variant: 'broadband', code: 'oc-1', returnUrl: 'http://x/seguranca/ativarbrisanet' }, [[]]);
    await idle(actor);
    expect(sent[0]).toEqual({
      attemptId: null,
      command: { type: 'start', variant: 'broadband', licenca: null, code: 'oc-1', state: null, return_url: 'http://x/seguranca/ativarbrisanet' },
    });
  });

  it('checks the fields before sending and typing clears the message', async () => {
    const h = harness({ variant: 'carrier' }, []);
    h.actor.send({ type: 'server.events', events: [h.event('attempt.started', { variant: 'carrier', licence: null, licence_locked: false, partner_code: null }, 0)] });
    await idle(h.actor);
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(10) 98765-4321' });
    h.actor.send({ type: 'SUBMIT' });
    expect(h.actor.getSnapshot().context).toMatchObject({ error: INVALID_PHONE, field: 'phone' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 98765-4321' });
    expect(h.actor.getSnapshot().context.error).toBeNull();
    h.actor.send({ type: 'FIELD_CHANGED', field: 'cpf_cnpj', value: '111.111.111-11' });
    h.actor.send({ type: 'SUBMIT' });
    expect(h.actor.getSnapshot().context).toMatchObject({ error: INVALID_CPF, field: 'cpf_cnpj' });
    expect(h.sent).toHaveLength(1); // only the start
  });

  it('sends the locked licence, not the typed one', async () => {
    const h = harness({ variant: 'standard', licenca: 'LINK-1' }, [[], []]);
    await idle(h.actor);
    h.actor.send({ type: 'server.events', events: [h.event('attempt.started', { variant: 'standard', licence: 'LINK-1', licence_locked: true, partner_code: null }, 0)] });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 98765-4321' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'licence', value: 'TYPED' });
    h.actor.send({ type: 'SUBMIT' });
    await idle(h.actor);
    expect(h.sent[1].command).toEqual({ type: 'submit_phone', phone: '(11) 98765-4321', licence: 'LINK-1' });
  });

  it('asks for the licence when the field is empty', async () => {
    const h = harness({ variant: 'standard' }, [[]]);
    await idle(h.actor);
    h.actor.send({ type: 'server.events', events: [h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0)] });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 98765-4321' });
    h.actor.send({ type: 'SUBMIT' });
    expect(h.actor.getSnapshot().context).toMatchObject({ error: MISSING_LICENCE, field: 'licence' });
  });

  it('shows a refusal of the server in the banner', async () => {
    const h = harness({ variant: 'standard' }, [[], new AttemptError(422, INVALID_PHONE, 'phone')]);
    await idle(h.actor);
    h.actor.send({ type: 'server.events', events: [h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0)] });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 98765-4321' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'licence', value: 'L' });
    h.actor.send({ type: 'SUBMIT' });
    await idle(h.actor);
    expect(h.actor.getSnapshot().context).toMatchObject({ error: INVALID_PHONE, field: 'phone' });
  });

  it('needs the terms, and blocks validate and resend during the countdown', async () => {
    const h = harness({ variant: 'standard' }, [[], [], []]);
    await idle(h.actor);
    h.actor.send({
      type: 'server.events',
      events: [
        h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0),
        h.event('phone.submitted', { phone: null, phone_display: '(11) *****-4321', licence: 'L' }, 1),
        h.event('code.sent', { resend: false }, 2),
        h.event('code.resend_requested', {}, 3),
        h.event('code.sent', { resend: true }, 4),
      ],
    });
    h.actor.send({ type: 'clock.tick', now: T0 + 5_000 });
    expect(viewOf(h.actor.getSnapshot())).toMatchObject({ panel: 'code_validation', resend_in: 59 });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'pincode', value: '123456' });
    h.actor.send({ type: 'SUBMIT' });
    h.actor.send({ type: 'RESEND' });
    expect(h.sent).toHaveLength(1);
    h.actor.send({ type: 'clock.tick', now: T0 + 64_000 });
    h.actor.send({ type: 'SUBMIT' });
    expect(h.actor.getSnapshot().context).toMatchObject({ error: TERMS_REQUIRED, field: 'terms' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'terms', value: true });
    h.actor.send({ type: 'SUBMIT' });
    await idle(h.actor);
    expect(h.sent[1].command).toEqual({ type: 'submit_code', pincode: '123456', terms_accepted: true });
  });

  it('applies each server event once, in version order', async () => {
    const h = harness({ variant: 'standard' }, [[]]);
    await idle(h.actor);
    const started = h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0);
    const submitted = h.event('phone.submitted', { phone: null, phone_display: '(11) *****-4321', licence: 'L' }, 1);
    const sentCode = h.event('code.sent', { resend: false }, 2);
    const submittedCode = h.event('code.submitted', { pincode: '111111' }, 3);
    const rejected = h.event('code.rejected', { reason: 'expired', status: 403 }, 4);
    h.actor.send({ type: 'server.events', events: [sentCode, started, submitted] });
    h.actor.send({ type: 'server.events', events: [started, submitted, sentCode, submittedCode, rejected] });
    expect(viewOf(h.actor.getSnapshot())).toMatchObject({ panel: 'code_validation', error: CODE_EXPIRED, busy: false });
    h.actor.send({ type: 'DISMISS' });
    expect(h.actor.getSnapshot().context.error).toBeNull();
  });
});

describe('activation machine, field echoes', () => {
  it('keeps the message when a field reports the value it already has', async () => {
    const h = harness({ variant: 'standard' }, [[]]);
    await idle(h.actor);
    h.actor.send({ type: 'server.events', events: [h.event('attempt.started', { variant: 'standard', licence: null, licence_locked: false, partner_code: null }, 0)] });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(10) 98765-4321' });
    h.actor.send({ type: 'SUBMIT' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(10) 98765-4321' });
    expect(h.actor.getSnapshot().context.error).toBe(INVALID_PHONE);
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(10) 98765-432' });
    expect(h.actor.getSnapshot().context.error).toBeNull();
  });
});
