// A machine snapshot held still: the actor logic a replayed screen's provider runs. Its
// snapshot is the folded one; whatever a panel sends changes nothing and starts nothing (no
// command, no timer, no stream), so the real panels render read-only.

import type { ActorLogic, AnyMachineSnapshot, EventObject } from 'xstate';

export function frozen<TSnapshot extends AnyMachineSnapshot>(snapshot: TSnapshot): ActorLogic<TSnapshot, EventObject> {
  // A fold the machine stopped on an error still shows its last screen: the actor running the
  // held snapshot is active, whatever the folding one became.
  const held = snapshot.status === 'active' ? snapshot : ({ ...snapshot, status: 'active', error: undefined } as TSnapshot);
  return {
    transition: (current) => current,
    getInitialSnapshot: () => held,
    getPersistedSnapshot: (current) => current,
  };
}
