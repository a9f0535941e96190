// Where a tab keeps the attempt it is in, so a reload, Back/Forward or a return from the app
// store reads it back (issue 29). Only the attempt's id is kept, in sessionStorage (one per
// tab, gone with it); the attempt itself, personal data included, stays on the server, which
// answers it only to the session that started it. The page's machine reads it back and folds
// its events like any other (lib/attempts/regions.ts, `resuming`).

import { useEffect, useRef } from 'react';
import { CANCELLED_MESSAGE } from './cancelled';

const PREFIX = 'exa.attempt:';

/** An attempt id as the server makes them: `<flow>-<uuid>`. */
const ID = /^(activation|cloud|download)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    // Storage disabled: the page simply starts afresh after a reload, as before.
    return null;
  }
}

/** The attempt of `flow` this tab left on the page `place`, if any. */
export function keptAttempt(flow: string, place: string): string | null {
  const id = storage()?.getItem(PREFIX + place) ?? null;
  return id !== null && ID.test(id) && id.startsWith(`${flow}-`) ? id : null;
}

/** Keeps `id` as this tab's attempt on `place`; null forgets it. */
export function keepAttempt(place: string, id: string | null): void {
  const store = storage();
  if (!store) return;
  try {
    if (id === null) store.removeItem(PREFIX + place);
    else store.setItem(PREFIX + place, id);
  } catch {
    // A full or disabled storage only loses the resume.
  }
}

/**
 * Whether a refusal tells the visitor to reload to start over (an attempt at its limit of
 * actions, wrong codes or downloads), or support ended the attempt: such an attempt is no
 * longer kept, so the reload does.
 */
export function startsOver(message: string | null | undefined): boolean {
  return typeof message === 'string' && (/Recarregue a página/i.test(message) || message === CANCELLED_MESSAGE);
}

/**
 * Keeps the page's attempt while it lives: `attemptId` once the server gave one; forgotten
 * when the page settled without one (the kept one was gone), when `finished` says the
 * attempt is not to be resumed, or for good once `message` tells the visitor to start over.
 */
export function useKeptAttempt(
  place: string,
  attemptId: string | null,
  settled: boolean,
  finished = false,
  message: string | null = null,
): void {
  // Sticky: the message may close (a snackbar does), the attempt stays abandoned.
  const abandoned = useRef(false);
  const over = startsOver(message);
  useEffect(() => {
    if (over) abandoned.current = true;
    if (finished || abandoned.current) keepAttempt(place, null);
    else if (attemptId !== null) keepAttempt(place, attemptId);
    else if (settled) keepAttempt(place, null);
  }, [place, attemptId, settled, finished, over]);
}
