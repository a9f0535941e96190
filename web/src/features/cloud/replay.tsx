// The cloud attempt replayed in the support console (issue 27): its events folded by the page's
// own machine, its network and redirect replaced by ones that do nothing, and each frame shown
// by the page's own card, loader and success modal on the frozen snapshot.

import './cloud.css';
import { useMemo } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import type { ReplayFlow, ReplayScreenProps } from '../../components/flow/replay';
import { foldFrames, type Frame, type ReplayedEvent } from '../../lib/attempts/replay/fold';
import { frozen } from '../../lib/attempts/replay/frozen';
import { CloudCard } from './components/CloudCard';
import { SuccessModal } from './components/SuccessModal';
import { CloudActor } from './context';
import { cloudMachine, type CloudSnapshot, type CommandInput, type CommandOutput } from './machine';
import { isBusy, panelOf } from './selectors';

const never = <T,>() => new Promise<T>(() => {});

/** The page's machine with nothing sent, followed or redirected: only the events move it. */
export const replayMachine = cloudMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => never()),
    follow: fromCallback(() => () => {}),
    resume: fromPromise<CommandOutput, { id: string }>(() => never()),
  },
  actions: { redirect: () => {} },
});

export function foldCloud(events: ReplayedEvent[]): Frame[] {
  return foldFrames(events, { logic: replayMachine, input: { phone: '', serial: '' } });
}

const snapshotOf = (frame: Frame) => frame.snapshot as CloudSnapshot;
const noop = () => {};

function CloudScreen({ frame }: ReplayScreenProps) {
  const snapshot = snapshotOf(frame);
  const logic = useMemo(() => frozen(snapshot) as unknown as typeof cloudMachine, [snapshot]);
  const panel = panelOf(snapshot);
  const done = panel === 'success' || panel === 'done';
  return (
    <CloudActor.Provider logic={logic}>
      <div className="cloud-page">
        <CloudCard onHelp={noop} onStartAgain={noop} />
      </div>
      <LoadingOverlay visible={isBusy(snapshot) && !done} label="Processando sua ativação" />
      {done && <SuccessModal onShown={noop} />}
    </CloudActor.Provider>
  );
}

export const cloudReplay: ReplayFlow = {
  fold: (events) => foldCloud(events),
  panelOf: (frame) => panelOf(snapshotOf(frame)),
  Screen: CloudScreen,
};
