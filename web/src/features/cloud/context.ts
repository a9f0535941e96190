import { createActorContext } from '@xstate/react';
import { cloudMachine } from './machine';

/** The page's machine, shared with its panels. */
export const CloudActor = createActorContext(cloudMachine);
