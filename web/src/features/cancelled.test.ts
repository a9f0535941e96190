// Issue 27: support cancels an attempt; each flow's page folds `attempt.cancelled` from the
// server's events: no wait for a step, and the message the server's view carries in the banner.

import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AnyStateMachine } from 'xstate';
import type { AttemptEvent } from '../lib/attempts/api';
import { CANCELLED_MESSAGE } from '../lib/attempts/cancelled';
import { activationMachine } from './activation/machine';
import { cloudMachine } from './cloud/machine';
import { isBusy as cloudBusy } from './cloud/selectors';
import { downloadMachine } from './download/machine';

const at = '2026-11-26T12:00:00Z';
const wire = (version: number, type: string, data: Record<string, unknown> = {}): AttemptEvent => ({ type, data, version, at });

/** The machine with no server behind it: commands never answer, nothing is followed. */
function started(machine: AnyStateMachine, input: unknown) {
  const quiet = machine.provide({
    actors: {
      command: fromPromise(() => new Promise(() => {})),
      follow: fromCallback(() => () => {}),
      resume: fromPromise(() => new Promise(() => {})),
      ticker: fromCallback(() => () => {}),
    },
  });
  return createActor(quiet, { input }).start();
}

describe('a cancelled attempt, on the visitor’s page', () => {
  it('cloud: the loader stops and the banner says the attempt was ended by support', () => {
    const actor = started(cloudMachine, { phone: '', serial: '' });
    actor.send({
      type: 'server.events',
      events: [wire(1, 'details.submitted', { phone_masked: '(11) *****-0001', serial: 'X' }), wire(2, 'phone.checked')],
    });
    expect(cloudBusy(actor.getSnapshot())).toBe(true);
    actor.send({ type: 'server.events', events: [wire(3, 'attempt.cancelled', { step: 'send_code' })] });
    expect(actor.getSnapshot().context.error).toBe(CANCELLED_MESSAGE);
    expect(cloudBusy(actor.getSnapshot())).toBe(false);
  });

  it('download: the wait ends and the message stays', () => {
    const actor = started(downloadMachine, { os: 'win_pc', browser: 'Chrome' });
    actor.send({
      type: 'server.events',
      events: [wire(1, 'download.started', { os: 'win_pc', browser: 'Chrome' }), wire(2, 'phone.submitted', { phone_masked: '(11) *****-0001' })],
    });
    expect(actor.getSnapshot().context.pending).not.toBeNull();
    actor.send({ type: 'server.events', events: [wire(3, 'attempt.cancelled', { step: 'send_code' })] });
    expect(actor.getSnapshot().context.error).toBe(CANCELLED_MESSAGE);
    expect(actor.getSnapshot().context.pending).toBeNull();
  });

  it('activation: the banner says the attempt was ended by support', () => {
    const actor = started(activationMachine, { variant: 'standard', code: null, returnUrl: '' });
    actor.send({
      type: 'server.events',
      events: [wire(1, 'attempt.started', { variant: 'standard' }), wire(2, 'phone.submitted', { phone_masked: '(11) *****-0001' })],
    });
    expect(actor.getSnapshot().context.pending).not.toBeNull();
    actor.send({ type: 'server.events', events: [wire(3, 'attempt.cancelled', { step: 'send_code' })] });
    expect(actor.getSnapshot().context.error).toBe(CANCELLED_MESSAGE);
    expect(actor.getSnapshot().context.pending).toBeNull();
  });
});
