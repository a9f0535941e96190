// The machine on its own: local validation before any request, one command at a time,
// the stream's events applied once, the 10 s countdown and the 3 s success modal.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { AttemptError } from '../../lib/attempts/api';
import { cloudMachine, type CloudEvent, type CommandInput, type CommandOutput } from './machine';
import { MESSAGES } from './texts';
import { isBusy, panelOf, resendOf } from './selectors';
import type { ServerEvent } from './types';

const ID = 'cloud-00000000-0000-4000-8000-000000000001';

function wire(version: number, type: string, data: Record<string, unknown> = {}): ServerEvent {
  return { type, data, version, at: new Date().toISOString() };
}

function harness(reply: (input: CommandInput) => Promise<CommandOutput>) {
  const calls: CommandInput[] = [];
  const followed: string[] = [];
  const redirect = vi.fn();
  const machine = cloudMachine.provide({
    actors: {
      command: fromPromise<CommandOutput, CommandInput>(({ input }) => {
        calls.push(input);
        return reply(input);
      }),
      follow: fromCallback<CloudEvent, { id: string }>(({ input }) => {
        followed.push(input.id);
        return () => {};
      }),
    },
    actions: { redirect },
  });
  const actor = createActor(machine, { input: { phone: '', serial: '' } }).start();
  return { actor, calls, followed, redirect };
}

/** Lets the promise actors settle. */
async function settle() {
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('cloud machine', () => {
  it('checks the phone, then the serial, before sending anything', async () => {
    const { actor, calls } = harness(() => new Promise(() => {}));
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context).toMatchObject({ error: MESSAGES.phoneRequired, field: 'phone' });
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91234-567' });
    expect(actor.getSnapshot().context.field).toBeNull();
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.error).toBe(MESSAGES.phoneInvalid);
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91234-5678' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context).toMatchObject({ error: MESSAGES.serialRequired, field: 'serial' });
    await settle();
    expect(calls).toEqual([]);
  });

  it('starts the attempt, follows its stream and reaches the code form', async () => {
    const { actor, calls, followed } = harness(async () => ({
      id: ID,
      events: [wire(1, 'details.submitted', { phone: null, phone_masked: '(11) *****-5678', serial: 'PSN-1' })],
    }));
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91234-5678' });
    actor.send({ type: 'FIELD_CHANGED', field: 'serial', value: 'PSN-1' });
    actor.send({ type: 'SUBMIT' });
    expect(isBusy(actor.getSnapshot())).toBe(true);
    await settle();
    expect(calls).toEqual([{ attemptId: null, command: { type: 'start', phone: '(11) 91234-5678', serial: 'PSN-1' } }]);
    expect(followed).toEqual([ID]);
    expect(actor.getSnapshot().context).toMatchObject({ attemptId: ID, busy: true, phoneMasked: '(11) *****-5678' });
    // The stream repeats version 1 and brings the rest: each event applies once.
    actor.send({
      type: 'server.events',
      events: [wire(1, 'details.submitted', { phone: null, phone_masked: '(11) *****-5678', serial: 'PSN-1' }), wire(2, 'phone.checked'), wire(3, 'code.sent', { transaction_id: 'tx' })],
    });
    expect(panelOf(actor.getSnapshot())).toBe('code');
    expect(isBusy(actor.getSnapshot())).toBe(false);
    expect(actor.getSnapshot().context.version).toBe(3);
  });

  it('sends form 1 again as submit_details once the attempt exists', async () => {
    const { actor, calls } = harness(async (input) =>
      input.command.type === 'start'
        ? { id: ID, events: [wire(1, 'details.submitted', { phone: null, phone_masked: 'x', serial: 'A' }), wire(2, 'phone.refused', { message: 'Número recusado.' })] }
        : { id: ID, events: [] },
    );
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '11912345678' });
    actor.send({ type: 'FIELD_CHANGED', field: 'serial', value: 'A' });
    actor.send({ type: 'SUBMIT' });
    await settle();
    expect(actor.getSnapshot().context.error).toBe('Número recusado.');
    actor.send({ type: 'SUBMIT' });
    await settle();
    expect(calls.map((c) => [c.attemptId, c.command.type])).toEqual([
      [null, 'start'],
      [ID, 'submit_details'],
    ]);
  });

  it("shows a refused command's message and stops the loader", async () => {
    const { actor } = harness(async () => {
      throw new AttemptError(422, 'Por favor, digite um numero de celular válido!', 'phone');
    });
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '11912345678' });
    actor.send({ type: 'FIELD_CHANGED', field: 'serial', value: 'A' });
    actor.send({ type: 'SUBMIT' });
    await settle();
    const snapshot = actor.getSnapshot();
    expect(snapshot.context).toMatchObject({ error: 'Por favor, digite um numero de celular válido!', field: 'phone' });
    expect(isBusy(snapshot)).toBe(false);
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('counts down from 10 each second after a successful resend, then shows the link', () => {
    const { actor } = harness(() => new Promise(() => {}));
    actor.send({ type: 'server.events', events: [wire(1, 'details.submitted', { phone_masked: 'x', serial: 'A' }), wire(2, 'phone.checked'), wire(3, 'code.sent', { transaction_id: 't' })] });
    expect(resendOf(actor.getSnapshot())).toBe('link');
    actor.send({ type: 'server.events', events: [wire(4, 'code.resend_requested'), wire(5, 'code.resent', { transaction_id: 't2' })] });
    const seen: number[] = [actor.getSnapshot().context.resendSeconds];
    for (let i = 0; i < 9; i += 1) {
      vi.advanceTimersByTime(1000);
      expect(resendOf(actor.getSnapshot())).toBe('countdown');
      seen.push(actor.getSnapshot().context.resendSeconds);
    }
    expect(seen).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    vi.advanceTimersByTime(1000);
    expect(resendOf(actor.getSnapshot())).toBe('link');
  });

  it('validates the code locally and sends it', async () => {
    const { actor, calls } = harness(async () => ({ id: ID, events: [wire(4, 'code.submitted', { pincode: '123456' })] }));
    actor.send({ type: 'server.events', events: [wire(1, 'details.submitted', { phone_masked: 'x', serial: 'A' }), wire(2, 'phone.checked'), wire(3, 'code.sent', { transaction_id: 't' })] });
    // The attempt id comes from a first reply; here the stream alone moved the panel.
    actor.send({ type: 'FIELD_CHANGED', field: 'code', value: '12345' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context).toMatchObject({ error: MESSAGES.codeInvalid, field: 'code' });
    actor.send({ type: 'FIELD_CHANGED', field: 'code', value: '123456' });
    actor.send({ type: 'SUBMIT' });
    await settle();
    expect(calls.map((c) => c.command)).toEqual([{ type: 'submit_code', code: '123456' }]);
    expect(actor.getSnapshot().context.busy).toBe(true);
  });

  it('shows the success modal for 3 s from when it is on screen, then redirects once', () => {
    const { actor, redirect } = harness(() => new Promise(() => {}));
    actor.send({ type: 'server.events', events: [wire(1, 'details.submitted', { phone_masked: 'x', serial: 'A' }), wire(2, 'phone.checked'), wire(3, 'code.sent', { transaction_id: 't' })] });
    actor.send({ type: 'server.events', events: [wire(4, 'code.submitted'), wire(5, 'code.validated'), wire(6, 'serial.registered'), wire(7, 'custom_token.obtained'), wire(8, 'account.signed_in')] });
    expect(panelOf(actor.getSnapshot())).toBe('success');
    // A busy phone takes a while to draw the modal: that time does not count.
    vi.advanceTimersByTime(5000);
    expect(redirect).not.toHaveBeenCalled();
    actor.send({ type: 'MODAL_SHOWN' });
    vi.advanceTimersByTime(2000);
    // The closing event of the same append must not restart the 3 s.
    actor.send({ type: 'server.events', events: [wire(9, 'cloud.activated')] });
    vi.advanceTimersByTime(999);
    expect(redirect).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(redirect).toHaveBeenCalledTimes(1);
    expect(panelOf(actor.getSnapshot())).toBe('done');
  });
});
