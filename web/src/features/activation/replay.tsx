// The activation attempt replayed in the support console (issue 27): its events folded by the
// page's own machine, its network and browser effects replaced by ones that do nothing, and each
// frame shown by the page's own card on the frozen snapshot (components/flow/replay.ts).

import './activation.css';
import { useMemo } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import type { ReplayFlow, ReplayScreenProps } from '../../components/flow/replay';
import type { CommandOutput } from '../../lib/attempts/regions';
import { foldFrames, type Frame, type ReplayedEvent } from '../../lib/attempts/replay/fold';
import { frozen } from '../../lib/attempts/replay/frozen';
import { isVariant, type Variant } from './chain';
import { ActivationCard } from './components/ActivationCard';
import { ActivationActor } from './context';
import { activationMachine, type ActivationSnapshot } from './machine';
import { isBusy, panelOf } from './selectors';
import type { CommandInput, Platform } from './types';
import { VARIANT_CONFIGS } from './variants';

const never = <T,>() => new Promise<T>(() => {});

/** The page's machine with nothing sent, followed or ticking: only the events move it. */
export const replayMachine = activationMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => never()),
    follow: fromCallback(() => () => {}),
    resume: fromPromise<CommandOutput, { id: string }>(() => never()),
    ticker: fromCallback(() => () => {}),
  },
});

const variantOf = (variant: string | null): Variant => (isVariant(variant) ? variant : 'standard');

/** The visitor's platform, as the store redirect or a product chosen recorded it. */
export function platformOf(events: ReplayedEvent[]): Platform {
  for (const event of events) {
    const platform = (event.data as { platform?: unknown } | null | undefined)?.platform;
    if (platform === 'ios' || platform === 'android' || platform === 'desktop') return platform;
  }
  return 'desktop';
}

export function foldActivation(events: ReplayedEvent[], variant: string | null): Frame[] {
  return foldFrames(events, {
    logic: replayMachine,
    input: { variant: variantOf(variant), autostart: false },
    // The page's ticker moves its clock (the resend countdown): at each event's time here.
    tick: (now) => ({ type: 'clock.tick', now }),
  });
}

const snapshotOf = (frame: Frame) => frame.snapshot as ActivationSnapshot;

function ActivationScreen({ frame, variant, events }: ReplayScreenProps) {
  const snapshot = snapshotOf(frame);
  const logic = useMemo(() => frozen(snapshot) as unknown as typeof activationMachine, [snapshot]);
  const platform = useMemo(() => platformOf(events), [events]);
  return (
    <ActivationActor.Provider logic={logic}>
      <div className="activation">
        <ActivationCard config={VARIANT_CONFIGS[variantOf(variant)]} platform={platform} onChangeNumber={() => {}} />
      </div>
      <LoadingOverlay visible={isBusy(snapshot)} label="Aguarde, estamos processando" />
    </ActivationActor.Provider>
  );
}

export const activationReplay: ReplayFlow = {
  fold: foldActivation,
  panelOf: (frame) => panelOf(snapshotOf(frame)),
  Screen: ActivationScreen,
};
