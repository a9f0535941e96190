// Permalinks (issue 27): to an attempt, and to one event in it (`?evento=<position>`); the page
// scrolls to that event and highlights it.

import { useEffect, useState } from 'react';

export const EVENT_PARAM = 'evento';

export const attemptLink = (id: string) => `/suporte/tentativas/${encodeURIComponent(id)}`;
export const eventLink = (id: string, version: number) => `${attemptLink(id)}?${EVENT_PARAM}=${version}`;
/** The timeline element of the event at `version`. */
export const eventElementId = (version: number) => `evento-${version}`;

/** The event position a permalink names, if any. */
export function eventOf(params: URLSearchParams): number | null {
  const value = Number(params.get(EVENT_PARAM));
  return Number.isInteger(value) && value > 0 ? value : null;
}

/** Scrolls the linked event into view once it is on the page, and moves the focus there. */
export function useScrollToEvent(version: number | null, ready: boolean) {
  useEffect(() => {
    if (version === null || !ready) return;
    const element = document.getElementById(eventElementId(version));
    if (!element) return;
    element.scrollIntoView?.({ block: 'center' });
    element.focus({ preventScroll: true });
  }, [version, ready]);
}

/** Copies the absolute link to the clipboard, and says so. */
export function CopyLink({ path, label }: { path: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    const url = `${window.location.origin}${path}`;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      window.prompt('Copie o link:', url);
    }
  };
  return (
    <span className="sp-copy">
      <button type="button" className="sp-button sp-button--secondary" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="sp-copy__status">
        {copied ? 'Link copiado.' : ''}
      </span>
    </span>
  );
}
