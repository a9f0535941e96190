import { useEffect } from 'react';
import type { Platform } from '../machine';
import { REDIRECT_TEXT } from '../messages';
import { STORE_REDIRECT_MS, storeRedirectTarget } from '../platform';

interface Props {
  platform: Platform;
  /** Records the redirect as the panel opens. */
  onRedirecting: () => void;
  /** Leaves for `target` (a store URL, or /seguranca on a computer). */
  go: (target: string) => void;
}

/** Spec panel 5: after 3 s, the App Store on iOS, Google Play on Android, /seguranca otherwise. */
export function RedirectStorePanel({ platform, onRedirecting, go }: Props) {
  useEffect(() => {
    onRedirecting();
    const timer = setTimeout(() => go(storeRedirectTarget(platform)), STORE_REDIRECT_MS);
    return () => clearTimeout(timer);
    // Once per panel: the redirect must not restart when the parent re-renders.
  }, []);
  return (
    <section className="activation-panel activation-panel--center" aria-live="polite">
      <span className="activation-spinner" aria-hidden="true" />
      <p className="activation-heading">{REDIRECT_TEXT}</p>
    </section>
  );
}
