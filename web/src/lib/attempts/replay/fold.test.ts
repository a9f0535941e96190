// The replay's fold on plain data: its clock fires timers in order at their own times, the
// console's masked data reaches the machine as the browser received it, and the real clock is
// back once the fold returns.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import { ReplayClock } from './clock';
import { asBrowserData, foldFrames, HIDDEN } from './fold';
import { frozen } from './frozen';

afterEach(() => vi.useRealTimers());

describe('the replay clock', () => {
  it('fires each timer due on the way at its own time, those set meanwhile too', () => {
    const clock = new ReplayClock(1_000);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push(`b@${clock.now()}`), 300);
    clock.setTimeout(() => {
      fired.push(`a@${clock.now()}`);
      clock.setTimeout(() => fired.push(`a2@${clock.now()}`), 100);
    }, 100);
    const late = clock.setTimeout(() => fired.push('never'), 150);
    clock.clearTimeout(late);
    clock.advanceTo(1_250);
    expect(fired).toEqual(['a@1100', 'a2@1200']);
    expect(clock.now()).toBe(1_250);
    clock.advanceTo(1_000); // never back
    expect(clock.now()).toBe(1_250);
    clock.advanceTo(2_000);
    expect(fired).toEqual(['a@1100', 'a2@1200', 'b@1300']);
  });
});

describe('the console data as the browser received it', () => {
  it('turns the masked "•••" into null and keeps the masked displays', () => {
    expect(asBrowserData({ phone: HIDDEN, phone_display: '(11) *****-4321', list: [{ code: HIDDEN }, 3] })).toEqual({
      phone: null,
      phone_display: '(11) *****-4321',
      list: [{ code: null }, 3],
    });
    expect(asBrowserData(null)).toBeNull();
    expect(asBrowserData(['x'])).toBeNull();
  });
});

/** A machine that counts the seconds after 'go' (a timer re-armed each second) and stamps Date.now. */
const counter = setup({
  types: { context: {} as { seconds: number; stamped: number | null; seen: unknown }, events: {} as { type: string; events?: { data: unknown }[] } },
}).createMachine({
  context: { seconds: 0, stamped: null, seen: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        'server.events': {
          target: 'counting',
          actions: assign(({ event }) => ({ stamped: Date.now(), seen: event.events?.[0]?.data ?? null })),
        },
      },
    },
    counting: {
      after: { 1000: { target: 'counting', reenter: true, actions: assign(({ context }) => ({ seconds: context.seconds + 1 })) } },
      on: { 'server.events': { actions: assign(({ event }) => ({ seen: event.events?.[0]?.data ?? null })) } },
    },
  },
});

describe('foldFrames', () => {
  it('gives one frame per event, in version order, at each event’s time', () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse('2030-01-01T00:00:00Z'));
    const frames = foldFrames(
      [
        { version: 2, type: 'b', at: '2026-03-02T12:00:05Z', data: { phone: HIDDEN, masked: '(11) *****-0001' } },
        { version: 1, type: 'a', at: '2026-03-02T12:00:00Z', data: {} },
      ],
      { logic: counter, input: undefined },
    );
    expect(frames.map((f) => [f.version, f.type, f.time])).toEqual([
      [1, 'a', Date.parse('2026-03-02T12:00:00Z')],
      [2, 'b', Date.parse('2026-03-02T12:00:05Z')],
    ]);
    // Stamped with the event's time, not the real clock's; 5 s counted between the two.
    expect(frames[0].snapshot.context.stamped).toBe(Date.parse('2026-03-02T12:00:00Z'));
    expect(frames[1].snapshot.context.seconds).toBe(5);
    expect(frames[1].snapshot.context.seen).toEqual({ phone: null, masked: '(11) *****-0001' });
    expect(Date.now()).toBe(Date.parse('2030-01-01T00:00:00Z'));
  });

  it('gives the real clock back when the machine throws', () => {
    const realNow = Date.now;
    const throwing = setup({}).createMachine({
      on: {
        'server.events': {
          actions: () => {
            throw new Error('broken');
          },
        },
      },
    });
    const frames = foldFrames([{ version: 1, type: 'a', at: '2026-03-02T12:00:00Z' }], { logic: throwing, input: undefined });
    expect(frames).toHaveLength(1);
    expect(Date.now).toBe(realNow);
    // Its last screen still shows, held still.
    const held = createActor(frozen(frames[0].snapshot)).start();
    expect(held.getSnapshot().status).toBe('active');
    held.send({ type: 'anything' });
    expect(held.getSnapshot().status).toBe('active');
  });
});
