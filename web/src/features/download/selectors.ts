// What the download's panels read from the machine's snapshot: the panel, the step indicator's
// step, whether a call is running and what the busy button says.

import type { DownloadSnapshot } from './machine';
import { STEP_OF, type Panel } from './types';

export function panelOf(snapshot: DownloadSnapshot): Panel {
  return (snapshot.value as { panel: Panel }).panel;
}

export function stepOf(snapshot: DownloadSnapshot): 1 | 2 | 3 {
  return STEP_OF[panelOf(snapshot)];
}

/** A call is running: the server's step, or the browser's command (the start among them). */
export function isBusy(snapshot: DownloadSnapshot): boolean {
  return (
    snapshot.context.pending !== null ||
    snapshot.matches({ request: 'sending' }) ||
    snapshot.matches({ request: 'resuming' })
  );
}

/** What the busy button says, from the call running (the visitor's command or the server's step). */
export function busyLabelOf(snapshot: DownloadSnapshot): string {
  const command = snapshot.context.outgoing?.type;
  switch (snapshot.context.pending) {
    case 'send_code':
      return 'Enviando código…';
    case 'resend_code':
      return 'Reenviando código…';
    case 'confirm_code':
    case 'find_user':
      return 'Verificando código…';
    case 'list_partners':
    case 'request_download':
    case 'list_devices':
      return 'Preparando o download…';
    case 'remove_device':
      return 'Desconectando…';
  }
  if (command === 'submit_phone') return 'Enviando código…';
  if (command === 'submit_code') return 'Verificando código…';
  if (command === 'choose_partner') return 'Preparando o download…';
  return 'Carregando…';
}
