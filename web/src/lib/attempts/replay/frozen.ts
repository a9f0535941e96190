// A machine snapshot held still: the actor logic a replayed screen's provider runs. Its
// snapshot is the folded one; whatever a panel sends changes nothing and starts nothing (no
// command, no timer, no stream), so the real panels render read-only.

import type { ActorLogic, AnyMachineSnapshot, EventObject } from 'xstate';

export function frozen<TSnapshot extends AnyMachineSnapshot>(snapshot: TSnapshot): ActorLogic<TSnapshot, EventObject> {
  return {
    transition: (current) => current,
    getInitialSnapshot: () => snapshot,
    getPersistedSnapshot: (current) => current,
  };
}
