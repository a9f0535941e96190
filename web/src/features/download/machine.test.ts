// The machine's request and live regions: the start, commands, stream replies applied once, and
// panels that change without dropping the attempt.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { AttemptReply } from '../../lib/attempts/api';
import { AttemptError } from '../../lib/attempts/api';
import { downloadMachine, type CommandInput, type CommandOutput } from './machine';
import { isBusy, panelOf } from './selectors';
import type { DownloadCommand, DownloadEvent } from './types';
import { GENERIC_FAILURE } from './texts';

const ID = 'download-00000000-0000-4000-8000-000000000002';

function reply(version: number, events: { type: string; data: Record<string, unknown> }[]): AttemptReply {
  return {
    id: ID,
    flow: 'download',
    version: version + events.length - 1,
    events: events.map((e, i) => ({ ...e, version: version + i, at: '2025-03-05T12:00:00Z' })),
    view: {},
  };
}

/**
 * The machine started on arrival (its input), with the attempt API replaced by `answer`; the
 * first `refusedStarts` starts are refused at the door (503, `Retry-After: 1`).
 */
function harness(answer: (command: DownloadCommand) => Promise<AttemptReply>, refusedStarts = 0) {
  let push: ((reply: AttemptReply) => void) | null = null;
  const saved: number[] = [];
  const commands: DownloadCommand[] = [];
  let starts = 0;
  const actor = createActor(
    downloadMachine.provide({
      actors: {
        command: fromPromise<CommandOutput, CommandInput>(async ({ input }) => {
          if (input.command.type === 'start') {
            starts += 1;
            if (starts <= refusedStarts) throw new AttemptError(503, 'Muitas pessoas estão ativando agora.', null, 1);
            return reply(1, [{ type: 'download.started', data: { os: 'win_pc', browser: 'Chrome' } }]);
          }
          commands.push(input.command);
          return answer(input.command);
        }),
        follow: fromCallback<DownloadEvent, { id: string }>(({ sendBack }) => {
          push = (r) => sendBack({ type: 'server.events', events: r.events });
          return () => {
            push = null;
          };
        }),
      },
      actions: { saveInstaller: ({ context }) => saved.push(context.downloads) },
    }),
    { input: { os: 'win_pc', browser: 'Chrome' } },
  );
  actor.start();
  return { actor, commands, saved, push: (r: AttemptReply) => push?.(r), starts: () => starts };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => vi.useRealTimers());

describe('download machine io', () => {
  it('starts, sends commands and keeps following across panel changes', async () => {
    const h = harness(async () => reply(2, [{ type: 'phone.submitted', data: { phone: null, masked: '(11) *****-0001' } }]));
    expect(isBusy(h.actor.getSnapshot())).toBe(true);
    await tick();
    expect(h.actor.getSnapshot().matches({ request: 'idle', live: 'following' })).toBe(true);
    expect(h.actor.getSnapshot().context.attemptId).toBe(ID);

    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-0001' });
    h.actor.send({ type: 'SUBMIT' });
    await tick();
    expect(h.commands).toEqual([{ type: 'submit_phone', phone: '(11) 91000-0001' }]);
    expect(h.actor.getSnapshot().context.maskedPhone).toBe('(11) *****-0001');
    expect(isBusy(h.actor.getSnapshot())).toBe(true);

    h.push(reply(3, [{ type: 'code.sent', data: {} }]));
    expect(panelOf(h.actor.getSnapshot())).toBe('code_entry');
    expect(h.actor.getSnapshot().matches({ request: 'idle', live: 'following' })).toBe(true);
    h.actor.stop();
  });

  it('applies an event once even when the reply and the stream both carry it', async () => {
    const h = harness(async () => reply(2, [{ type: 'phone.submitted', data: { masked: 'x' } }]));
    await tick();
    const granted = reply(2, [
      { type: 'partners.listed', data: { partners: [] } },
      { type: 'download.granted', data: {} },
    ]);
    h.push(granted);
    h.push(granted);
    expect(h.actor.getSnapshot().context.downloads).toBe(1);
    expect(h.saved).toEqual([1]);
    expect(panelOf(h.actor.getSnapshot())).toBe('download_done');
    h.actor.stop();
  });

  it('puts a field refusal under its field and other failures in the snackbar', async () => {
    let failure: unknown = new AttemptError(422, 'Número inválido. Verifique novamente.', 'phone');
    const h = harness(async () => {
      throw failure;
    });
    await tick();
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-0001' });
    h.actor.send({ type: 'SUBMIT' });
    await tick();
    const { field, error } = h.actor.getSnapshot().context;
    expect({ field, message: error }).toEqual({ field: 'phone', message: 'Número inválido. Verifique novamente.' });
    h.actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-0001' });
    expect(h.actor.getSnapshot().context.field).toBeNull();

    failure = new AttemptError(502, 'bad gateway', null);
    h.actor.send({ type: 'SUBMIT' });
    await tick();
    expect(h.actor.getSnapshot().context.snackbar?.message).toBe(GENERIC_FAILURE);
    h.actor.stop();
  });

  it('asks for confirmation before removing a device and sends the chosen one on Sim', async () => {
    const h = harness(async () => reply(9, [{ type: 'device.removal_requested', data: { device_id: 'd2' } }]));
    await tick();
    h.actor.send({ type: 'DISCONNECT', deviceId: 'd2' });
    expect(h.actor.getSnapshot().context.confirmDevice).toBe('d2');
    h.actor.send({ type: 'CONFIRM_NO' });
    expect(h.actor.getSnapshot().context.confirmDevice).toBeNull();
    h.actor.send({ type: 'CONFIRM_YES' });
    await tick();
    expect(h.commands).toEqual([]);
    h.actor.send({ type: 'DISCONNECT', deviceId: 'd2' });
    h.actor.send({ type: 'CONFIRM_YES' });
    expect(h.actor.getSnapshot().context.confirmDevice).toBeNull();
    await tick();
    expect(h.commands).toEqual([{ type: 'remove_device', device_id: 'd2' }]);
    h.actor.stop();
  });

  /** A machine whose first start is refused at the door, the next admitted. */
  const refusedOnce = () =>
    harness(async () => reply(2, [{ type: 'phone.submitted', data: { masked: '(11) *****-0001' } }]), 1);

  it('sends the phone pressed for while the start waited in line as soon as the start is in', async () => {
    vi.useFakeTimers();
    const { actor, commands, starts } = refusedOnce();
    await vi.advanceTimersByTimeAsync(0);
    // Refused at the door: in line, the phone panel still there, nothing sent.
    expect(actor.getSnapshot().matches({ request: 'waiting' })).toBe(true);
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-0001' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.phoneQueued).toBe(true);
    expect(commands).toEqual([]);
    // The line's turn (1 s plus up to half of it): the start goes in, then the phone by itself.
    await vi.advanceTimersByTimeAsync(1_600);
    expect(starts()).toBe(2);
    expect(commands).toEqual([{ type: 'submit_phone', phone: '(11) 91000-0001' }]);
    expect(actor.getSnapshot().context).toMatchObject({ phoneQueued: false, maskedPhone: '(11) *****-0001' });
    actor.stop();
  });

  it('forgets a phone pressed for in line once the visitor changes it', async () => {
    vi.useFakeTimers();
    const { actor, commands } = refusedOnce();
    await vi.advanceTimersByTimeAsync(0);
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-0001' });
    actor.send({ type: 'SUBMIT' });
    actor.send({ type: 'FIELD_CHANGED', field: 'phone', value: '(11) 91000-000' });
    expect(actor.getSnapshot().context.phoneQueued).toBe(false);
    await vi.advanceTimersByTimeAsync(1_600);
    expect(actor.getSnapshot().context.attemptId).toBe(ID);
    expect(commands).toEqual([]);
    actor.stop();
  });

  it('closes the snackbar after 4 s, but not an earlier timer closing a newer one', () => {
    vi.useFakeTimers();
    const actor = createActor(downloadMachine.provide({ actions: { saveInstaller: () => {} } }));
    actor.start();
    actor.send({ type: 'download.started', data: { os: 'win_pc', browser: 'C' } });
    actor.send({ type: 'phone.submitted', data: { masked: 'x' } });
    actor.send({ type: 'code.send_failed', data: { reason: 'r' } });
    vi.advanceTimersByTime(3_000);
    actor.send({ type: 'phone.submitted', data: { masked: 'x' } });
    actor.send({ type: 'code.send_failed', data: { reason: 'r' } });
    const second = actor.getSnapshot().context.snackbar;
    vi.advanceTimersByTime(1_500);
    expect(actor.getSnapshot().context.snackbar).toEqual(second);
    vi.advanceTimersByTime(2_600);
    expect(actor.getSnapshot().context.snackbar).toBeNull();
    actor.stop();
  });
});
