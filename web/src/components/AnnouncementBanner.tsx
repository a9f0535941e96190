import { useState } from 'react';
import { CloseIcon } from './Icons';
import { useHydrated } from './useHydrated';

/** Local storage key the spec names; any stored value means the visitor closed the banner. */
export const ANNOUNCEMENT_STORAGE_KEY = 'poupup';

function alreadyDismissed(): boolean {
  try {
    return window.localStorage.getItem(ANNOUNCEMENT_STORAGE_KEY) !== null;
  } catch {
    // Storage can be blocked (private modes, policies): then show the banner every time.
    return false;
  }
}

/** 'Agora o Hero é EXA Segurança!' — shown in the home header until the visitor closes it. */
export function AnnouncementBanner() {
  // The prerendered home page shows the banner (a first visit, as Lighthouse's): storage is read
  // after hydration, so a returning visitor sees it go then.
  const hydrated = useHydrated();
  const [closed, setClosed] = useState(false);
  if (closed || (hydrated && alreadyDismissed())) return null;

  const close = () => {
    try {
      window.localStorage.setItem(ANNOUNCEMENT_STORAGE_KEY, 'fechado');
    } catch {
      // Nothing to keep: it just comes back on the next visit.
    }
    setClosed(true);
  };

  return (
    <div className="announcement" role="region" aria-label="Aviso">
      <p className="announcement__text">
        <img src="/img/icon-seguranca.svg" width="24" height="24" alt="" />
        <span>Agora o Hero é EXA Segurança!</span>
      </p>
      <button type="button" className="icon-button announcement__close" aria-label="Fechar aviso" onClick={close}>
        <CloseIcon size={20} />
      </button>
    </div>
  );
}
