// The download attempt replayed in the support console (issue 27): its events folded by the
// page's own machine, its network and the installer's save replaced by ones that do nothing,
// and each frame shown by the page's own step indicator, panel, loader and snackbar on the
// frozen snapshot.

import './download.css';
import { useMemo } from 'react';
import { fromCallback, fromPromise } from 'xstate';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import type { ReplayFlow, ReplayScreenProps } from '../../components/flow/replay';
import type { CommandOutput } from '../../lib/attempts/regions';
import { foldFrames, type Frame, type ReplayedEvent } from '../../lib/attempts/replay/fold';
import { frozen } from '../../lib/attempts/replay/frozen';
import { CurrentPanel } from './components/CurrentPanel';
import { Snackbar } from './components/Snackbar';
import { StepIndicator } from './components/StepIndicator';
import { DownloadActor } from './context';
import { downloadMachine, type DownloadSnapshot } from './machine';
import { isBusy, panelOf, stepOf } from './selectors';
import { TEXTS } from './texts';
import type { CommandInput } from './machine';

const never = <T,>() => new Promise<T>(() => {});

/** The page's machine with nothing sent, followed or saved: only the events move it. */
export const replayMachine = downloadMachine.provide({
  actors: {
    command: fromPromise<CommandOutput, CommandInput>(() => never()),
    follow: fromCallback(() => () => {}),
    resume: fromPromise<CommandOutput, { id: string }>(() => never()),
  },
  actions: { saveInstaller: () => {} },
});

/** Without input the machine starts nothing: the attempt's start is among the events. */
export function foldDownload(events: ReplayedEvent[]): Frame[] {
  return foldFrames(events, { logic: replayMachine, input: undefined });
}

const snapshotOf = (frame: Frame) => frame.snapshot as DownloadSnapshot;

function DownloadScreen({ frame }: ReplayScreenProps) {
  const snapshot = snapshotOf(frame);
  const logic = useMemo(() => frozen(snapshot) as unknown as typeof downloadMachine, [snapshot]);
  const panel = panelOf(snapshot);
  return (
    <DownloadActor.Provider logic={logic}>
      <div className="dl-page" data-panel={panel}>
        <StepIndicator current={stepOf(snapshot)} />
        <div className="dl-page__panel">
          <CurrentPanel panel={panel} onChangeNumber={() => {}} />
        </div>
      </div>
      <LoadingOverlay visible={isBusy(snapshot)} label={TEXTS.loading} />
      <Snackbar />
    </DownloadActor.Provider>
  );
}

export const downloadReplay: ReplayFlow = {
  fold: (events) => foldDownload(events),
  panelOf: (frame) => panelOf(snapshotOf(frame)),
  Screen: DownloadScreen,
};
