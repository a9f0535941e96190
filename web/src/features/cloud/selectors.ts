// Small reads of the machine's snapshot, shared by the page and the tests.

import type { CloudSnapshot } from './machine';
import type { Panel } from './types';

export function panelOf(snapshot: CloudSnapshot): Panel {
  if (snapshot.matches({ panel: 'code' })) return 'code';
  if (snapshot.matches({ panel: 'success' })) return 'success';
  if (snapshot.matches({ panel: 'done' })) return 'done';
  return 'details';
}

/** The code panel's resend control: the link, or the countdown after a successful resend. */
export function resendOf(snapshot: CloudSnapshot): 'link' | 'countdown' | null {
  if (snapshot.matches({ panel: { code: 'countdown' } })) return 'countdown';
  if (snapshot.matches({ panel: 'code' })) return 'link';
  return null;
}

/** The loader covers the form while a command is sent or a server step runs. */
export function isBusy(snapshot: CloudSnapshot): boolean {
  return snapshot.context.busy || snapshot.matches({ request: 'sending' }) || snapshot.matches({ request: 'resuming' });
}

/**
 * After 'Ativar', the server validates the code, registers the serial, waits 5 s and signs the
 * account in: the button says it is activating and one line says which part is running.
 */
export function activationStageOf(snapshot: CloudSnapshot): { button: string; line: string } | null {
  if (!isBusy(snapshot) || snapshot.context.outgoing?.type !== 'submit_code') return null;
  const registered = snapshot.context.seenSerialRegistered;
  return {
    button: 'Ativando…',
    line: registered
      ? 'Número de série registrado. Finalizando a ativação da sua conta, isso leva alguns segundos…'
      : 'Conferindo o código e registrando o número de série…',
  };
}
