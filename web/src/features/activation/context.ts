import { createActorContext } from '@xstate/react';
import { activationMachine } from './machine';

/** The page's machine, shared with its panels. */
export const ActivationActor = createActorContext(activationMachine);
