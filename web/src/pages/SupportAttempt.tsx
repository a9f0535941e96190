// The console's attempt page with the flows it can replay (issue 27): each flow gives its own
// replay (its machine and panels); the app hands them to the console, as no feature imports
// another.

import { ReplayFlowsContext, type ReplayFlow } from '../components/flow/replay';
import { activationReplay } from '../features/activation/replay';
import { cloudReplay } from '../features/cloud/replay';
import { downloadReplay } from '../features/download/replay';
import SupportAttemptPage from '../features/support/SupportAttemptPage';

const REPLAY_FLOWS: Readonly<Record<string, ReplayFlow>> = {
  activation: activationReplay,
  cloud: cloudReplay,
  download: downloadReplay,
};

export default function SupportAttempt() {
  return (
    <ReplayFlowsContext.Provider value={REPLAY_FLOWS}>
      <SupportAttemptPage />
    </ReplayFlowsContext.Provider>
  );
}
