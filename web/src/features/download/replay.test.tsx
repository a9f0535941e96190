// The support console's replay of a download (issue 27): every shared case
// (tests/vectors/download/panels.json), given as the console's timeline gives it (personal data
// masked), folds into one frame per event whose panel, step, loader, snackbar and code error are
// the ones the visitor's page machine shows after the same events at the same times, and whose
// replayed screen is, tag for tag, the page's step indicator, panel, loader and snackbar then.
import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import vectors from '../../../../tests/vectors/download/panels.json';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { asTimeline, canonicalHtml, replayedHtml } from '../../testing/replay';
import { CurrentPanel } from './components/CurrentPanel';
import { Snackbar } from './components/Snackbar';
import { StepIndicator } from './components/StepIndicator';
import { DownloadActor } from './context';
import { downloadMachine, type CommandInput, type DownloadSnapshot } from './machine';
import type { CommandOutput } from '../../lib/attempts/regions';
import { downloadReplay } from './replay';
import { isBusy, panelOf, stepOf } from './selectors';
import { INVALID_CODE, TEXTS } from './texts';

interface Case {
  name: string;
  events: { type: string; data: Record<string, unknown> | null; at: string }[];
  expect: { panel: string; step: number; busy: boolean; snackbar: string | null; code_error: string | null }[];
}

const cases = (vectors as { cases: Case[] }).cases;

/** The visitor's page machine, its network and the installer's save stubbed. */
const visitorMachine = downloadMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => new Promise(() => {})),
    follow: fromCallback(() => () => {}),
  },
  actions: { saveInstaller: () => {} },
});

/** The visitor's page as the replay shows it: the page's step indicator, panel, loader and snackbar. */
function renderVisitorPage() {
  const page: { actor: ActorRefFrom<typeof downloadMachine> | null } = { actor: null };
  function Grab() {
    page.actor = DownloadActor.useActorRef();
    return null;
  }
  function Screen() {
    const panel = DownloadActor.useSelector(panelOf);
    const step = DownloadActor.useSelector(stepOf);
    const busy = DownloadActor.useSelector(isBusy);
    return (
      <>
        <div className="dl-page" data-panel={panel}>
          <StepIndicator current={step} />
          <div className="dl-page__panel">
            <CurrentPanel panel={panel} onChangeNumber={() => {}} />
          </div>
        </div>
        <LoadingOverlay visible={busy} label={TEXTS.loading} />
        <Snackbar />
      </>
    );
  }
  const { container } = render(
    <DownloadActor.Provider logic={visitorMachine}>
      <Grab />
      <Screen />
    </DownloadActor.Provider>,
  );
  return { container, actor: () => page.actor as ActorRefFrom<typeof downloadMachine> };
}

const shownBy = (snapshot: DownloadSnapshot) => ({
  panel: panelOf(snapshot),
  step: stepOf(snapshot),
  busy: isBusy(snapshot),
  snackbar: snapshot.context.snackbar?.message ?? null,
  code_error: snapshot.context.codeError ? INVALID_CODE : null,
});

describe('the download replayed in the console', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('has every shared case', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s: each replayed screen is the page at that event', (_name, vector) => {
    const timeline = asTimeline(vector.events);
    const frames = downloadReplay.fold(timeline, null);
    expect(frames.map((f) => f.version)).toEqual(timeline.map((e) => e.version));

    vi.setSystemTime(Date.parse(vector.events[0].at));
    const page = renderVisitorPage();
    let previous = Date.parse(vector.events[0].at);
    vector.events.forEach((event, index) => {
      const at = Date.parse(event.at);
      act(() => {
        vi.advanceTimersByTime(at - previous);
        page.actor().send({ type: 'server.events', events: [{ ...event, version: index + 1 }] });
      });
      previous = at;
      const where = `${vector.name} #${index} (${event.type})`;
      const frame = frames[index];
      expect({ where, ...shownBy(frame.snapshot as DownloadSnapshot) }).toEqual({ where, ...vector.expect[index] });
      expect({ where, ...shownBy(page.actor().getSnapshot()) }).toEqual({ where, ...vector.expect[index] });
      expect(replayedHtml(downloadReplay, frames, index, null, timeline), where).toBe(canonicalHtml(page.container.innerHTML));
    });
  });
});
