import { useCallback, useEffect, useRef } from 'react';

/** The mark of the history entry an open panel adds (on top of the router's own state). */
const MARK = 'exaPanelOpen';

function isMarked(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[MARK] === true;
}

/**
 * The phone's Back button closes an open panel (menu, chat, help) instead of leaving the page
 * (issue 29): while `open`, the page has one more history entry at the same address, and going
 * back from it calls `onBack`. Returns what a panel's own close (X, Escape) calls first, so
 * that entry goes too; a link picked in the panel leaves it, as the router's entry follows it.
 */
export function useBackCloses(open: boolean, onBack: () => void): () => void {
  const onBackRef = useRef(onBack);
  useEffect(() => {
    onBackRef.current = onBack;
  });
  useEffect(() => {
    if (!open) return;
    // Checked, so a second run of the effect (React's strict mode) adds no second entry.
    if (!isMarked(window.history.state)) {
      window.history.pushState({ ...((window.history.state as object | null) ?? {}), [MARK]: true }, '');
    }
    const onPop = (event: PopStateEvent) => {
      if (!isMarked(event.state)) onBackRef.current();
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [open]);
  return useCallback(() => {
    if (isMarked(window.history.state)) window.history.back();
  }, []);
}
