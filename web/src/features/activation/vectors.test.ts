// The shared activation sequences (tests/vectors/activation/flows.json) folded by the XState
// machine: after every event, the machine's view must equal the one the Rust projector gives
// (events/tests/activation_vectors.rs runs the same file).
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import vectors from '../../../../tests/vectors/activation/flows.json';
import { activationMachine } from './machine';
import type { CommandOutput } from './machine';
import type { CommandInput } from './types';
import type { Variant } from './chain';
import { viewOf } from './selectors';

interface Step {
  at: string;
  type?: string;
  data?: Record<string, unknown>;
  tick?: boolean;
  expect: Record<string, unknown>;
}

interface Sequence {
  name: string;
  variant: Variant;
  steps: Step[];
}

/** The machine with no network and no ticker: only the vector's events and times move it. */
const offline = activationMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => new Promise(() => {})),
    follow: fromCallback(() => () => {}),
    ticker: fromCallback(() => () => {}),
  },
});

/** JSON with sorted keys, so key order never decides a comparison. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );
}

/** Every step where the machine's view differs from the expected one. */
export function mismatches(sequences: Sequence[]): string[] {
  const found: string[] = [];
  for (const sequence of sequences) {
    const actor = createActor(offline, { input: { variant: sequence.variant, autostart: false } }).start();
    sequence.steps.forEach((step, i) => {
      if (!step.tick) {
        const event = { type: step.type ?? '', data: step.data ?? {}, version: i + 1, at: step.at };
        actor.send({ type: 'server.events', events: [event] });
      }
      actor.send({ type: 'clock.tick', now: Date.parse(step.at) });
      const view = viewOf(actor.getSnapshot());
      if (canonical(view) !== canonical(step.expect)) {
        found.push(`${sequence.name} #${i}: expected ${JSON.stringify(step.expect)} got ${JSON.stringify(view)}`);
      }
    });
    actor.stop();
  }
  return found;
}

const sequences = (vectors as { sequences: Sequence[] }).sequences;

describe('activation flow vectors', () => {
  it('has a sequence for every variant', () => {
    expect(new Set(sequences.map((s) => s.variant))).toEqual(
      new Set(['standard', 'insurance', 'partner_portal', 'broadband', 'telecom', 'carrier']),
    );
  });

  it.each(sequences.map((s) => [s.name, s] as const))('%s', (_name, sequence) => {
    expect(mismatches([sequence])).toEqual([]);
  });

  it('fails on a deliberately wrong copy', () => {
    const mutated = structuredClone(sequences);
    mutated[0].steps[2].expect.panel = 'product_list';
    const found = mismatches(mutated);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^standard: happy path to the store redirect #2/);
  });
});
