// The support console's replay of a cloud activation (issue 27): every shared case
// (tests/vectors/cloud/panels.json), given as the console's timeline gives it (personal data
// masked), folds into one frame per event whose panel, loader, message and resend control are
// the ones the visitor's page machine shows after the same events at the same times, and whose
// replayed screen is, tag for tag, the page's card, loader and modal at that moment.
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import panels from '../../../../tests/vectors/cloud/panels.json';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { asTimeline, canonicalHtml, replayedHtml } from '../../testing/replay';
import { CloudCard } from './components/CloudCard';
import { SuccessModal } from './components/SuccessModal';
import { CloudActor } from './context';
import { cloudMachine, type CloudEvent, type CloudSnapshot, type CommandInput, type CommandOutput } from './machine';
import { cloudReplay } from './replay';
import { isBusy, panelOf, resendOf } from './selectors';

interface Step {
  event: { type: string; data: Record<string, unknown> | null; at: string };
  expect: { panel: string; loading: boolean; error: string | null; resend: string | null };
}

const cases = panels.cases as unknown as { name: string; steps: Step[] }[];

/** The visitor's page machine, its network and redirect stubbed as in the vector tests. */
const visitorMachine = cloudMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => new Promise(() => {})),
    follow: fromCallback<CloudEvent, { id: string }>(() => () => {}),
  },
  actions: { redirect: () => {} },
});

/** The visitor's page as the replay shows it: the page's card, loader and modal on the live machine. */
function renderVisitorPage() {
  const page: { actor: ActorRefFrom<typeof cloudMachine> | null } = { actor: null };
  function Grab() {
    page.actor = CloudActor.useActorRef();
    return null;
  }
  function Layers() {
    const actor = CloudActor.useActorRef();
    const panel = CloudActor.useSelector(panelOf);
    const busy = CloudActor.useSelector(isBusy);
    const done = panel === 'success' || panel === 'done';
    return (
      <>
        <LoadingOverlay visible={busy && !done} label="Processando sua ativação" />
        {done && <SuccessModal onShown={() => actor.send({ type: 'MODAL_SHOWN' })} />}
      </>
    );
  }
  const { container } = render(
    <CloudActor.Provider logic={visitorMachine} options={{ input: { phone: '', serial: '' } }}>
      <Grab />
      <div className="cloud-page">
        <CloudCard onHelp={() => {}} onStartAgain={() => {}} />
      </div>
      <Layers />
    </CloudActor.Provider>,
  );
  return { container, actor: () => page.actor as ActorRefFrom<typeof cloudMachine> };
}

const shownBy = (snapshot: CloudSnapshot) => ({
  panel: panelOf(snapshot),
  loading: snapshot.context.busy,
  error: snapshot.context.error,
  resend: resendOf(snapshot),
});

describe('the cloud activation replayed in the console', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('has every shared case', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: each replayed screen is the page at that event', (_name, vector) => {
    const timeline = asTimeline(vector.steps.map((s) => s.event));
    const frames = cloudReplay.fold(timeline, null);
    expect(frames.map((f) => f.version)).toEqual(timeline.map((e) => e.version));

    vi.setSystemTime(Date.parse(vector.steps[0].event.at));
    const page = renderVisitorPage();
    let previous = Date.parse(vector.steps[0].event.at);
    vector.steps.forEach((step, index) => {
      const at = Date.parse(step.event.at);
      act(() => {
        vi.advanceTimersByTime(at - previous);
        page.actor().send({ type: 'server.events', events: [{ ...step.event, version: index + 1 }] });
      });
      previous = at;
      const frame = frames[index];
      const where = `${vector.name} #${index} (${step.event.type})`;
      expect({ where, ...shownBy(frame.snapshot as CloudSnapshot) }).toEqual({ where, ...step.expect });
      expect({ where, ...shownBy(page.actor().getSnapshot()) }).toEqual({ where, ...step.expect });
      expect(replayedHtml(cloudReplay, frames, index, null, timeline), where).toBe(canonicalHtml(page.container.innerHTML));
    });
  });
});
