// The visitor's screens, folded again from the attempt's events by the page's own machine
// (issue 27): the support console's timeline gives the events, masked; each is handed to the machine
// as the visitor's browser received it (lib/attempts/regions.ts, `server.events`), at its own
// time, and the machine's snapshot after it is the screen the visitor saw. Nothing of the
// visitor's browser is recorded: the events are enough.

import { createActor } from 'xstate';
import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';
import type { AttemptEvent } from '../api';
import { ReplayClock } from './clock';

/** An event as the support console's timeline gives it (personal data masked). */
export interface ReplayedEvent {
  version: number;
  type: string;
  at: string;
  data?: unknown;
}

/** What the console shows in place of a sealed field or a secret (orchestrator/src/support/masking.rs). */
export const HIDDEN = '•••';

/** One replayed moment: the event and the machine's snapshot after it. */
export interface Frame {
  version: number;
  type: string;
  at: string;
  /** `at` in ms since the epoch: the replay's clock. */
  time: number;
  snapshot: AnyMachineSnapshot;
}

export interface FoldOptions {
  /** The page's machine, its network and browser effects replaced by ones that do nothing. */
  logic: AnyStateMachine;
  /** Its input for a page that starts nothing by itself (the attempt is in the events). */
  input: unknown;
  /** An event telling the machine the time after each one, for a machine with its own clock. */
  tick?: (time: number) => EventObject;
}

/**
 * The data as the visitor's browser received it: the console's "•••" for a sealed field or
 * a secret was null there (the masked displays beside them, kept, are what the page shows).
 */
export function asBrowserData(data: unknown): Record<string, unknown> | null {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  return unmask(data) as Record<string, unknown>;
}

function unmask(value: unknown): unknown {
  if (value === HIDDEN) return null;
  if (Array.isArray(value)) return value.map(unmask);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, unmask(v)]));
  }
  return value;
}

/** A timeline entry as the visitor's page receives an event. */
export function asAttemptEvent(entry: ReplayedEvent): AttemptEvent {
  return { type: entry.type, data: asBrowserData(entry.data), version: entry.version, at: entry.at };
}

/** Milliseconds of an ISO time; an unreadable one counts as the epoch. */
function timeOf(at: string): number {
  const time = Date.parse(at);
  return Number.isNaN(time) ? 0 : time;
}

/**
 * One frame per event, in version order. The machine's clock and `Date.now` read each event's
 * time while it is folded (the machines stamp some deadlines with `Date.now`); the fold is
 * synchronous, so nothing else runs meanwhile, and the real clock is back when it returns.
 */
export function foldFrames(entries: ReplayedEvent[], { logic, input, tick }: FoldOptions): Frame[] {
  const sorted = [...entries].sort((a, b) => a.version - b.version);
  const clock = new ReplayClock(sorted.length > 0 ? timeOf(sorted[0].at) : 0);
  const realNow = Date.now;
  Date.now = () => clock.now();
  try {
    const actor = createActor(logic, { input, clock });
    // An event the machine cannot fold stops it on its last screen, which the replay keeps
    // showing; the error is not the console page's to throw.
    actor.subscribe({ error: () => {} });
    actor.start();
    const frames = sorted.map((entry): Frame => {
      clock.advanceTo(timeOf(entry.at));
      const time = clock.now();
      actor.send({ type: 'server.events', events: [asAttemptEvent(entry)] });
      if (tick) actor.send(tick(time));
      return { version: entry.version, type: entry.type, at: entry.at, time, snapshot: actor.getSnapshot() };
    });
    actor.stop();
    return frames;
  } finally {
    Date.now = realNow;
  }
}
