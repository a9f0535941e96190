// A page read back folds its attempt's events as live ones (issue 29): the shared sequences
// (tests/vectors/activation/flows.json) read back at once end on the panel they end on live,
// and the ending that leaves for the store knows it was read back.
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, waitFor } from 'xstate';
import vectors from '../../../../tests/vectors/activation/flows.json';
import { activationMachine } from './machine';
import type { CommandOutput } from './machine';
import type { Variant } from './chain';
import type { CommandInput } from './types';
import { panelOf } from './selectors';

const KEPT = 'activation-00000000-0000-4000-8000-000000000001';

interface Step {
  at: string;
  type?: string;
  data?: Record<string, unknown>;
  tick?: boolean;
  expect: Record<string, unknown>;
}

const sequences = vectors.sequences as unknown as { name: string; variant: Variant; steps: Step[] }[];

function readBack(variant: Variant, steps: Step[]) {
  const events = steps
    .filter((s) => !s.tick)
    .map((s, i) => ({ type: s.type ?? '', data: s.data ?? {}, version: i + 1, at: s.at }));
  const started: string[] = [];
  const machine = activationMachine.provide({
    actors: {
      resume: fromPromise<CommandOutput, { id: string }>(async ({ input }) => ({ id: input.id, events })),
      command: fromPromise<CommandOutput, CommandInput>(({ input }) => {
        started.push(input.command.type);
        return new Promise(() => {});
      }),
      follow: fromCallback(() => () => {}),
      ticker: fromCallback(() => () => {}),
    },
  });
  return { actor: createActor(machine, { input: { variant, resume: KEPT } }).start(), started };
}

describe('an activation read back', () => {
  it('ends every shared sequence on its last panel, without starting another attempt', async () => {
    expect(sequences.length).toBeGreaterThan(5);
    for (const sequence of sequences) {
      const last = [...sequence.steps].reverse().find((s) => !s.tick);
      if (!last) continue;
      const { actor, started } = readBack(sequence.variant, sequence.steps);
      await waitFor(actor, (s) => s.matches({ request: 'idle' }));
      expect(panelOf(actor.getSnapshot()), sequence.name).toBe([...sequence.steps].reverse()[0].expect.panel);
      expect(actor.getSnapshot().context).toMatchObject({ attemptId: KEPT, replayed: true });
      expect(started, sequence.name).toEqual([]);
      actor.stop();
    }
  });
});
