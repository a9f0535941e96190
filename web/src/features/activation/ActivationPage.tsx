// The activation template (spec section 2, "Security activation screens"): one page for the
// six variants, each a configuration (variants.ts). The machine (machine.ts) holds the panel;
// the page provides it (context.ts) and each panel reads its part and sends what the visitor does.

import './activation.css';
import { useEffect, useMemo, useState } from 'react';
import { useLocation } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import type { Variant } from './chain';
import { ActivationActor } from './context';
import type { KeptFields, Platform, StartInput } from './types';
import { currentPlatform } from './platform';
import { isBusy } from './selectors';
import { VARIANT_CONFIGS, variantForPath } from './variants';
import { ActivationCard } from './components/ActivationCard';
import { TopBar } from './components/TopBar';
import { ActivationFooter } from './components/ActivationFooter';
import { useProofOfWork } from '../../lib/attempts/useProofOfWork';
import { keptAttempt, useKeptAttempt } from '../../lib/attempts/resume';
import { ACTIVATION_FLOW } from './types';

/** Spec section 3: the telecom partner's plan id, kept in local storage. */
export const AGILITY_PLAN_KEY = 'hash_agility_plan';

interface Props {
  /** The page's variant; read from the path when absent. */
  variant?: Variant;
}

/** The partner's return parameters: single use, so never sent twice. */
const PARTNER_RETURN_PARAMS = ['code', 'state'];

/**
 * The machine's input: the page's variant and what its query brings. The partner's `code`
 * and `state` only on the page's first round: the server accepts a return once.
 */
function startInput(variant: Variant, search: string, firstRound: boolean, kept?: KeptFields): StartInput {
  const query = new URLSearchParams(search);
  const partnerReturn = variant === 'broadband' && firstRound;
  // A partner's return is a new attempt; "Alterar número" too.
  const resumable = firstRound && !(partnerReturn && query.has('code'));
  return {
    resume: resumable ? keptAttempt(ACTIVATION_FLOW, placeOf(variant, search)) : null,
    kept,
    variant,
    licenca: query.get('licenca'),
    code: partnerReturn ? query.get('code') : null,
    state: partnerReturn ? query.get('state') : null,
    returnUrl: variant === 'broadband' ? `${window.location.origin}${VARIANT_CONFIGS[variant].path}` : null,
  };
}

/**
 * Where this tab keeps the page's attempt: the variant's page, and the licence its link
 * brought (another link is another attempt).
 */
function placeOf(variant: Variant, search: string): string {
  const licence = new URLSearchParams(search).get('licenca');
  return `${VARIANT_CONFIGS[variant].path}${licence ? `?licenca=${licence}` : ''}`;
}

/** Keeps the page's attempt in this tab (lib/attempts/resume.ts). */
function useKeptActivation(place: string) {
  const attemptId = ActivationActor.useSelector((s) => s.context.attemptId);
  const settled = ActivationActor.useSelector((s) => s.matches({ request: 'idle' }));
  const error = ActivationActor.useSelector((s) => s.context.error);
  useKeptAttempt(place, attemptId, settled, false, error);
}

/**
 * Takes the partner's one-time `code` and `state` out of the address bar once read, without a
 * navigation (the router keeps its location): a reload then opens the partner-login page
 * instead of sending a spent return, and the code stays out of the history.
 */
function useForgetPartnerReturn(pathname: string, search: string) {
  useEffect(() => {
    const query = new URLSearchParams(search);
    if (!PARTNER_RETURN_PARAMS.some((name) => query.has(name))) return;
    PARTNER_RETURN_PARAMS.forEach((name) => query.delete(name));
    const rest = query.toString();
    window.history.replaceState(window.history.state, '', `${pathname}${rest ? `?${rest}` : ''}`);
  }, [pathname, search]);
}

/** Keeps the telecom partner's plan id in local storage once the server finds it. */
function useStoredPlan() {
  const planId = ActivationActor.useSelector((s) => s.context.planId);
  useEffect(() => {
    if (planId === null) return;
    try {
      window.localStorage.setItem(AGILITY_PLAN_KEY, planId);
    } catch {
      // Storage may be disabled; the server keeps the plan for the subscription anyway.
    }
  }, [planId]);
}

function ActivationFlow({
  variant,
  place,
  onStartOver,
}: {
  variant: Variant;
  place: string;
  onStartOver: (kept: KeptFields) => void;
}) {
  const config = VARIANT_CONFIGS[variant];
  useKeptActivation(place);
  const platform: Platform = useMemo(() => currentPlatform(), []);
  const actor = ActivationActor.useActorRef();
  const busy = ActivationActor.useSelector(isBusy);
  // "Alterar número" starts a new attempt with what the visitor typed (the phone to correct).
  const onChangeNumber = () => {
    const { phone, licenceInput, cpfCnpj } = actor.getSnapshot().context;
    onStartOver({ phone, licenceInput, cpfCnpj });
  };
  useStoredPlan();

  return (
    <div className="activation">
      <TopBar partner={config.partner} logo={config.partnerLogo} />
      <main id="conteudo" className="activation-main">
        <ActivationCard config={config} platform={platform} onChangeNumber={onChangeNumber} />
      </main>
      <ActivationFooter />
      <LoadingOverlay visible={busy} label="Aguarde, estamos processando" />
    </div>
  );
}

/** The page of one activation route (default export for the lazy route). */
export default function ActivationPage({ variant }: Props) {
  const location = useLocation();
  const resolved = variant ?? variantForPath(location.pathname) ?? 'standard';
  const config = VARIANT_CONFIGS[resolved];
  usePageMeta({ title: config.pageTitle, description: config.description, noindex: true });
  useProofOfWork();
  // "Alterar número" starts over: a new key gives a fresh machine and a new attempt.
  const [round, setRound] = useState<{ n: number; kept?: KeptFields }>({ n: 0 });
  useForgetPartnerReturn(location.pathname, location.search);
  // A new query string (back from the partner with ?code=) starts a new attempt: the key gives
  // it a fresh machine, which reads its input once.
  return (
    <ActivationActor.Provider
      key={`${resolved}${location.search}#${round.n}`}
      options={{ input: startInput(resolved, location.search, round.n === 0, round.kept) }}
    >
      <ActivationFlow
        variant={resolved}
        place={placeOf(resolved, location.search)}
        onStartOver={(kept) => setRound(({ n }) => ({ n: n + 1, kept }))}
      />
    </ActivationActor.Provider>
  );
}
