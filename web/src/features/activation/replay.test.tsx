// The support console's replay of an activation (issue 27): every shared sequence
// (tests/vectors/activation/flows.json), given as the console's timeline gives it (personal data
// masked), folds into one frame per event whose panel and view are the ones the visitor's page
// machine shows after the same events at the same time, and whose replayed screen is, tag for
// tag, the page's card on the visitor's page at that moment.
import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fromCallback, fromPromise, type ActorRefFrom } from 'xstate';
import vectors from '../../../../tests/vectors/activation/flows.json';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import { replayAt, ReplayContext } from '../../components/flow/replay';
import { asTimeline, canonicalHtml, replayedHtml } from '../../testing/replay';
import type { Variant } from './chain';
import { ActivationCard } from './components/ActivationCard';
import { ActivationActor } from './context';
import { activationMachine, type CommandOutput } from './machine';
import { activationReplay, platformOf } from './replay';
import { isBusy, panelOf, viewOf } from './selectors';
import type { ActivationSnapshot } from './machine';
import type { CommandInput } from './types';
import { VARIANT_CONFIGS } from './variants';

interface Step {
  at: string;
  type?: string;
  data?: Record<string, unknown>;
  tick?: boolean;
  expect: Record<string, unknown>;
}

const sequences = (vectors as unknown as { sequences: { name: string; variant: Variant; steps: Step[] }[] }).sequences;

/** The visitor's page machine, its network and ticker stubbed as in the vector tests. */
const visitorMachine = activationMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => new Promise(() => {})),
    follow: fromCallback(() => () => {}),
    ticker: fromCallback(() => () => {}),
  },
});

/** The visitor's page as the replay shows it: the page's card and loader on the live machine. */
function renderVisitorPage(variant: Variant) {
  const page: { actor: ActorRefFrom<typeof activationMachine> | null } = { actor: null };
  function Grab() {
    page.actor = ActivationActor.useActorRef();
    return null;
  }
  function Loader() {
    return <LoadingOverlay visible={ActivationActor.useSelector(isBusy)} label="Aguarde, estamos processando" />;
  }
  const { container } = render(
    <MemoryRouter>
      <ActivationActor.Provider logic={visitorMachine} options={{ input: { variant, autostart: false } }}>
        <Grab />
        <div className="activation">
          <ActivationCard config={VARIANT_CONFIGS[variant]} platform="desktop" onChangeNumber={() => {}} />
        </div>
        <Loader />
      </ActivationActor.Provider>
    </MemoryRouter>,
  );
  return { container, send: (event: Parameters<ActorRefFrom<typeof activationMachine>['send']>[0]) => page.actor?.send(event), snapshot: () => page.actor?.getSnapshot() as ActivationSnapshot };
}

describe('the activation replayed in the console', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('has every shared sequence', () => {
    expect(sequences.length).toBeGreaterThanOrEqual(20);
  });

  it.each(sequences.map((s) => [s.name, s] as const))('%s: each replayed screen is the page at that event', (_name, sequence) => {
    const events = sequence.steps.filter((s) => !s.tick);
    const timeline = asTimeline(events.map((s) => ({ type: s.type ?? '', data: s.data, at: s.at })));
    const frames = activationReplay.fold(timeline, sequence.variant);
    expect(frames.map((f) => f.version)).toEqual(timeline.map((e) => e.version));

    vi.setSystemTime(Date.parse(sequence.steps[0].at));
    const page = renderVisitorPage(sequence.variant);
    let version = 0;
    sequence.steps.forEach((step, i) => {
      const now = Date.parse(step.at);
      act(() => {
        vi.setSystemTime(now);
        if (!step.tick) {
          version += 1;
          page.send({ type: 'server.events', events: [{ type: step.type ?? '', data: step.data ?? {}, version, at: step.at }] });
        }
        page.send({ type: 'clock.tick', now });
      });
      if (step.tick) return;
      const frame = frames[version - 1];
      const where = `${sequence.name} #${i} (${step.type})`;
      expect({ where, panel: activationReplay.panelOf(frame), view: viewOf(frame.snapshot as ActivationSnapshot) }).toEqual({
        where,
        panel: panelOf(page.snapshot()),
        view: step.expect,
      });
      expect(replayedHtml(activationReplay, frames, version - 1, sequence.variant, timeline), where).toBe(canonicalHtml(page.container.innerHTML));
    });
  });

  it('shows the masked phone the event carries, never a sealed value', () => {
    const timeline = [
      { version: 1, type: 'attempt.started', at: '2026-03-02T12:00:00Z', data: { variant: 'standard', licence: null, licence_locked: false } },
      { version: 2, type: 'phone.submitted', at: '2026-03-02T12:00:01Z', data: { phone: '•••', phone_display: '(11) *****-4321', licence: 'EXA-1' } },
      { version: 3, type: 'code.sent', at: '2026-03-02T12:00:02Z', data: { resend: false } },
    ];
    const frames = activationReplay.fold(timeline, 'standard');
    const html = replayedHtml(activationReplay, frames, 2, 'standard', timeline);
    expect(activationReplay.panelOf(frames[2])).toBe('code_validation');
    expect(html).toContain('(11) *****-4321');
    expect(html).not.toContain('•••');
  });

  it('stays on the store redirect panel: the replay leaves for no store', () => {
    // Up to the subscription, before the store redirect recorded a phone's platform: a computer,
    // which the page sends to /seguranca.
    const steps = sequences[0].steps.filter((s) => !s.tick && s.type !== 'store.redirected');
    const timeline = asTimeline(steps.map((s) => ({ type: s.type ?? '', data: s.data, at: s.at })));
    const frames = activationReplay.fold(timeline, 'standard');
    const last = frames.length - 1;
    expect(activationReplay.panelOf(frames[last])).toBe('redirect_store');
    function Where() {
      return <output data-testid="where">{useLocation().pathname}</output>;
    }
    const { Screen } = activationReplay;
    const { getByTestId } = render(
      <MemoryRouter initialEntries={['/suporte/tentativas/x']}>
        <ReplayContext.Provider value={replayAt(activationReplay, frames, last)}>
          <Screen frame={frames[last]} variant="standard" events={timeline} />
        </ReplayContext.Provider>
        <Where />
      </MemoryRouter>,
    );
    act(() => vi.advanceTimersByTime(10_000));
    expect(getByTestId('where').textContent).toBe('/suporte/tentativas/x');
  });

  it('takes the platform from the store redirect the visitor recorded', () => {
    expect(platformOf([{ version: 9, type: 'store.redirected', at: '2026-03-02T12:00:09Z', data: { platform: 'android' } }])).toBe('android');
    expect(platformOf([])).toBe('desktop');
  });
});
