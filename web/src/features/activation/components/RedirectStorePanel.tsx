import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { ActivationActor } from '../context';
import type { Platform } from '../machine';
import { REDIRECT_TEXT } from '../messages';
import { STORE_REDIRECT_MS, storeRedirectTarget } from '../platform';

/**
 * Spec panel 5: records the redirect as it opens, then after 3 s leaves for the App Store on
 * iOS, Google Play on Android, /seguranca otherwise.
 */
export function RedirectStorePanel({ platform }: { platform: Platform }) {
  const actor = ActivationActor.useActorRef();
  const navigate = useNavigate();
  useEffect(() => {
    actor.send({ type: 'STORE_REDIRECTED', platform });
    const timer = setTimeout(() => {
      const target = storeRedirectTarget(platform);
      if (target.startsWith('/')) navigate(target);
      else window.location.assign(target);
    }, STORE_REDIRECT_MS);
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
