// A page opened again in the same tab (reload, Back/Forward, back from another site) reads its
// attempt back and folds the events exactly as it folds live ones (issue 29).

import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import { AttemptError } from '../../lib/attempts/api';
import type { AttemptEvent } from '../../lib/attempts/api';
import { downloadMachine, type CommandInput, type CommandOutput } from './machine';
import { isBusy, panelOf } from './selectors';
import type { DownloadCommand, DownloadEvent } from './types';

const KEPT = 'download-00000000-0000-4000-8000-000000000007';
const NEW = 'download-00000000-0000-4000-8000-000000000008';

const wire = (types: [string, Record<string, unknown>][]): AttemptEvent[] =>
  types.map(([type, data], i) => ({ type, data, version: i + 1, at: '2026-03-05T12:00:00Z' }));

const TO_CODE = wire([
  ['download.started', { os: 'win_pc', browser: 'Chrome' }],
  ['phone.submitted', { phone: null, masked: '(11) *****-0001' }],
  ['code.sent', {}],
]);

const TO_DONE = wire([
  ['download.started', { os: 'win_pc', browser: 'Chrome' }],
  ['phone.submitted', { phone: null, masked: '(11) *****-0001' }],
  ['code.sent', {}],
  ['code.submitted', {}],
  ['code.confirmed', {}],
  ['user.found', {}],
  ['partners.listed', { partners: [{ id: 'p1', name: 'Parceiro', logotype: '', has_subscription: true }] }],
  ['download.granted', {}],
]);

/** The machine on arrival with a kept attempt whose read answers `read`. */
function arrive(read: () => Promise<CommandOutput>) {
  const commands: DownloadCommand[] = [];
  const saved: number[] = [];
  let push: ((events: AttemptEvent[]) => void) | null = null;
  const actor = createActor(
    downloadMachine.provide({
      actors: {
        resume: fromPromise<CommandOutput, { id: string }>(read),
        command: fromPromise<CommandOutput, CommandInput>(async ({ input }) => {
          commands.push(input.command);
          const events = input.command.type === 'start' ? wire([['download.started', {}]]) : [];
          return { id: input.attemptId ?? NEW, events };
        }),
        follow: fromCallback<DownloadEvent, { id: string }>(({ sendBack }) => {
          push = (events) => sendBack({ type: 'server.events', events });
          return () => {};
        }),
      },
      actions: { saveInstaller: ({ context }) => saved.push(context.downloads) },
    }),
    { input: { os: 'win_pc', browser: 'Chrome', resume: KEPT } },
  );
  actor.start();
  return { actor, commands, saved, push: (events: AttemptEvent[]) => push?.(events) };
}

describe('a page read back', () => {
  it('shows the loader, then the panel the visitor left, without starting another attempt', async () => {
    const h = arrive(async () => ({ id: KEPT, events: TO_CODE }));
    expect(isBusy(h.actor.getSnapshot())).toBe(true);
    await waitFor(h.actor, (s) => s.matches({ request: 'idle', live: 'following' }));
    const snapshot = h.actor.getSnapshot();
    expect(panelOf(snapshot)).toBe('code_entry');
    expect(snapshot.context).toMatchObject({ attemptId: KEPT, version: 3, maskedPhone: '(11) *****-0001' });
    expect(isBusy(snapshot)).toBe(false);
    expect(h.commands).toEqual([]);
    h.actor.stop();
  });

  it("keeps the finished download's panel and saves the installer only when asked again", async () => {
    const h = arrive(async () => ({ id: KEPT, events: TO_DONE }));
    await waitFor(h.actor, (s) => s.matches({ request: 'idle' }));
    expect(panelOf(h.actor.getSnapshot())).toBe('download_done');
    expect(h.saved).toEqual([]);
    h.actor.send({ type: 'RETRY_DOWNLOAD' });
    await waitFor(h.actor, (s) => s.matches({ request: 'idle' }));
    expect(h.commands).toEqual([{ type: 'retry_download' }]);
    h.push([{ type: 'download.granted', data: {}, version: TO_DONE.length + 1, at: '2026-03-05T12:01:00Z' }]);
    expect(h.saved).toEqual([2]);
    h.actor.stop();
  });

  it('starts afresh, with no message, when the server no longer knows the attempt for this session', async () => {
    const h = arrive(() => Promise.reject(new AttemptError(403, 'Esta tentativa pertence a outra sessão.', null)));
    await waitFor(h.actor, (s) => s.matches({ request: 'idle' }) && s.context.attemptId !== null);
    const snapshot = h.actor.getSnapshot();
    expect(h.commands).toEqual([{ type: 'start', os: 'win_pc', browser: 'Chrome' }]);
    expect(snapshot.context).toMatchObject({ attemptId: NEW, resumeId: null, error: null, snackbar: null });
    expect(panelOf(snapshot)).toBe('phone_entry');
    h.actor.stop();
  });
});
