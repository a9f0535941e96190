// The shared cloud vectors (tests/vectors/cloud/), run by the XState machine. The Rust
// projector folds the same files (events/tests/cloud_vectors.rs).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import fields from '../../../../tests/vectors/cloud/fields.json';
import panels from '../../../../tests/vectors/cloud/panels.json';
import { cloudMachine, type CloudEvent, type CommandInput, type CommandOutput } from './machine';
import { parseCode, parsePhone, parseSerial } from './rules';
import { panelOf, resendOf } from './selectors';

interface Step {
  event: { type: string; data: Record<string, unknown> | null; at: string };
  expect: { panel: string; loading: boolean; error: string | null; resend: string | null };
}

function quietMachine() {
  return cloudMachine.provide({
    actors: {
      command: fromPromise<CommandOutput, CommandInput>(() => new Promise(() => {})),
      follow: fromCallback<CloudEvent, { id: string }>(() => () => {}),
    },
  });
}

describe('cloud panel vectors', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('covers the branches of the flow', () => {
    expect(panels.cases.length).toBeGreaterThanOrEqual(10);
  });

  for (const vector of panels.cases) {
    it(vector.name, () => {
      const actor = createActor(quietMachine(), { input: { phone: '', serial: '' } }).start();
      let previous: number | null = null;
      (vector.steps as Step[]).forEach((step, index) => {
        const at = Date.parse(step.event.at);
        if (previous !== null) vi.advanceTimersByTime(at - previous);
        previous = at;
        actor.send({ type: 'server.events', events: [{ ...step.event, version: index + 1 }] });
        const snapshot = actor.getSnapshot();
        expect(
          {
            panel: panelOf(snapshot),
            loading: snapshot.context.busy,
            error: snapshot.context.error,
            resend: resendOf(snapshot),
          },
          `after step ${index} (${step.event.type})`,
        ).toEqual(step.expect);
      });
      actor.stop();
    });
  }
});

describe('cloud field vectors', () => {
  const rules = { phone: parsePhone, serial: parseSerial, code: parseCode } as const;
  for (const name of ['phone', 'serial', 'code'] as const) {
    it(`${name}: each input gives its value or message`, () => {
      const cases = fields[name] as Array<{ input: string; ok?: string; error?: string }>;
      expect(cases.length).toBeGreaterThan(0);
      for (const item of cases) {
        const expected = item.ok !== undefined ? { ok: item.ok } : { error: item.error };
        expect(rules[name](item.input), JSON.stringify(item.input)).toEqual(expected);
      }
    });
  }
});
