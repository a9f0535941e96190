// The shared vectors folded by the XState machine: after every event the machine must name
// the panel, step, busy flag, snackbar and code error the Rust projector names
// (events/tests/download_vectors.rs reads the same file).

import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import vectors from '../../../../tests/vectors/download/panels.json';
import { downloadMachine } from './machine';
import { isBusy, panelOf, stepOf } from './selectors';
import { INVALID_CODE } from './texts';

interface VectorEvent {
  type: string;
  data: Record<string, unknown> | null;
  at: string;
}

interface Expectation {
  panel: string;
  step: number;
  busy: boolean;
  snackbar: string | null;
  code_error: string | null;
}

interface Case {
  name: string;
  events: VectorEvent[];
  expect: Expectation[];
}

const cases = (vectors as { cases: Case[] }).cases;

describe('download machine follows the shared vectors', () => {
  it('has every scenario', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  for (const vector of cases) {
    it(vector.name, () => {
      const actor = createActor(downloadMachine.provide({ actions: { saveInstaller: () => {} } }));
      actor.start();
      vector.events.forEach((event, index) => {
        // Runner bookkeeping (step.started) is sent too: the machine must ignore it.
        actor.send({ type: event.type, data: event.data } as never);
        const snapshot = actor.getSnapshot();
        const want = vector.expect[index];
        const where = `${vector.name}, event ${index} (${event.type})`;
        expect({ where, panel: panelOf(snapshot) }).toEqual({ where, panel: want?.panel });
        expect({ where, step: stepOf(snapshot) }).toEqual({ where, step: want?.step });
        expect({ where, busy: isBusy(snapshot) }).toEqual({ where, busy: want?.busy });
        expect({ where, snackbar: snapshot.context.snackbar?.message ?? null }).toEqual({
          where,
          snackbar: want?.snackbar,
        });
        expect({ where, codeError: snapshot.context.codeError ? INVALID_CODE : null }).toEqual({
          where,
          codeError: want?.code_error,
        });
      });
      actor.stop();
    });
  }
});
