import { createActorContext } from '@xstate/react';
import { downloadMachine } from './machine';

/** The page's machine, shared with its panels. */
export const DownloadActor = createActorContext(downloadMachine);
