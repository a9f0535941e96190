import { useEffect, useEffectEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { ActivationActor } from '../context';
import type { Platform } from '../types';
import { ACTIVATED_HEADING, REDIRECT_TEXT, STORE_LINK, STORE_LINK_DESKTOP } from '../texts';
import { STORE_REDIRECT_MS, storeRedirectTarget } from '../platform';
import { useReplay } from '../../../components/flow/replay';

/**
 * Spec panel 5: records the redirect as it opens, then after 3 s leaves for the App Store on
 * iOS, Google Play on Android, /seguranca otherwise. Read back after the visitor came back
 * (from the store, or a reload), it offers the way on instead of leaving again by itself,
 * which would trap the Back button. Replayed in the support console, it shows what the visitor
 * saw and goes nowhere.
 */
export function RedirectStorePanel({ platform }: { platform: Platform }) {
  const actor = ActivationActor.useActorRef();
  const navigate = useNavigate();
  const replay = useReplay() !== null;
  // As the panel opened: later news does not turn a read-back panel into a leaving one.
  const [replayed] = useState(() => actor.getSnapshot().context.replayed);
  const target = storeRedirectTarget(platform);
  const startRedirect = useEffectEvent(() => {
    if (replayed || replay) return undefined;
    actor.send({ type: 'STORE_REDIRECTED', platform });
    return setTimeout(() => {
      if (target.startsWith('/')) navigate(target);
      else window.location.assign(target);
    }, STORE_REDIRECT_MS);
  });
  // Once per panel: the redirect must not restart when the parent re-renders.
  useEffect(() => {
    const timer = startRedirect();
    return () => clearTimeout(timer);
  }, []);
  return (
    <section className="activation-panel activation-panel--center" aria-labelledby="activation-done" aria-live="polite">
      <svg className="activation-done-icon" viewBox="0 0 48 48" width="56" height="56" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="#0a6b5c" />
        <path d="M14 25l7 7 13-15" fill="none" stroke="#fff" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h1 id="activation-done" className="activation-heading">
        {ACTIVATED_HEADING}
      </h1>
      {replayed ? (
        <p className="activation-redirect">
          <a className="button button--primary" href={target}>
            {target.startsWith('/') ? STORE_LINK_DESKTOP : STORE_LINK}
          </a>
        </p>
      ) : (
        <p className="activation-redirect">
          <span className="activation-spinner activation-spinner--small" aria-hidden="true" />
          {REDIRECT_TEXT}
        </p>
      )}
    </section>
  );
}
