// The activation template (spec section 2, "Security activation screens"): one page for the
// six variants, each a configuration (variants.ts). The machine (machine.ts) holds the panel;
// this component renders it and sends what the visitor does.

import './activation.css';
import { useEffect, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { usePageMeta } from '../../components/Seo';
import { ErrorBanner } from '../../components/flow/ErrorBanner';
import { LoadingOverlay } from '../../components/flow/LoadingOverlay';
import type { Variant } from './chain';
import { activationMachine, resendIn } from './machine';
import type { ActivationSnapshot, Platform } from './machine';
import { currentPlatform } from './platform';
import { panelOf } from './view';
import { VARIANT_CONFIGS, variantForPath } from './variants';
import { CodeValidationPanel } from './components/CodeValidationPanel';
import { EmailPanel } from './components/EmailPanel';
import { PartnerLoginPanel } from './components/PartnerLoginPanel';
import { ProductListPanel } from './components/ProductListPanel';
import { RedirectStorePanel } from './components/RedirectStorePanel';
import { SendCodePanel } from './components/SendCodePanel';
import { TopBar } from './components/TopBar';

/** Spec section 3: the telecom partner's plan id, kept in local storage. */
export const AGILITY_PLAN_KEY = 'hash_agility_plan';

/** Commands that record something without the visitor waiting on them. */
const QUIET_COMMANDS = ['record_store_redirect', 'choose_product'];

const busyOf = (s: ActivationSnapshot) =>
  s.context.pending !== null ||
  panelOf(s) === 'starting' ||
  (s.matches({ request: 'sending' }) && !QUIET_COMMANDS.includes(s.context.outgoing?.type ?? ''));

interface Props {
  /** The page's variant; read from the path when absent. */
  variant?: Variant;
}

function Activation({ variant, search }: { variant: Variant; search: string }) {
  const config = VARIANT_CONFIGS[variant];
  const navigate = useNavigate();
  const platform: Platform = useMemo(() => currentPlatform(), []);
  const input = useMemo(() => {
    const query = new URLSearchParams(search);
    return {
      variant,
      licenca: query.get('licenca'),
      code: variant === 'broadband' ? query.get('code') : null,
      returnUrl: variant === 'broadband' ? `${window.location.origin}${config.path}` : null,
    };
  }, [variant, search, config.path]);
  const actor = useActorRef(activationMachine, { input });

  const panel = useSelector(actor, panelOf);
  const busy = useSelector(actor, busyOf);
  const error = useSelector(actor, (s) => s.context.error);
  const field = useSelector(actor, (s) => s.context.field);
  const phone = useSelector(actor, (s) => s.context.phone);
  const phoneDisplay = useSelector(actor, (s) => s.context.phoneDisplay);
  const cpfCnpj = useSelector(actor, (s) => s.context.cpfCnpj);
  const licenceInput = useSelector(actor, (s) => s.context.licenceInput);
  const licence = useSelector(actor, (s) => s.context.licence);
  const licenceLocked = useSelector(actor, (s) => s.context.licenceLocked);
  const email = useSelector(actor, (s) => s.context.email);
  const pincode = useSelector(actor, (s) => s.context.pincode);
  const terms = useSelector(actor, (s) => s.context.terms);
  const countdown = useSelector(actor, (s) => resendIn(s.context));
  const products = useSelector(actor, (s) => s.context.products.join(','));
  const planId = useSelector(actor, (s) => s.context.planId);
  const partnerLoginUrl = useSelector(actor, (s) => s.context.partnerLoginUrl);

  useEffect(() => {
    if (planId === null) return;
    try {
      window.localStorage.setItem(AGILITY_PLAN_KEY, planId);
    } catch {
      // Storage may be disabled; the server keeps the plan for the subscription anyway.
    }
  }, [planId]);

  const go = (target: string) => {
    if (target.startsWith('/')) navigate(target);
    else window.location.assign(target);
  };

  return (
    <div className="activation">
      <TopBar partner={config.partner} />
      <main id="conteudo" className="activation-main">
        <div className="activation-card">
          {error && <ErrorBanner message={error} onDismiss={() => actor.send({ type: 'DISMISS' })} />}
          {(panel === 'send_code' || panel === 'starting') && (
            <SendCodePanel
              config={config}
              phone={phone}
              cpfCnpj={cpfCnpj}
              licence={licenceLocked ? (licence ?? '') : licenceInput}
              licenceLocked={licenceLocked}
              field={field}
              onPhone={(value) => actor.send({ type: 'PHONE_CHANGED', value })}
              onCpfCnpj={(value) => actor.send({ type: 'CPF_CNPJ_CHANGED', value })}
              onLicence={(value) => actor.send({ type: 'LICENCE_CHANGED', value })}
              onSubmit={() => actor.send({ type: 'SUBMIT' })}
            />
          )}
          {panel === 'email' && (
            <EmailPanel
              heading={config.headTitle}
              phone={phone}
              email={email}
              field={field}
              onPhone={(value) => actor.send({ type: 'PHONE_CHANGED', value })}
              onEmail={(value) => actor.send({ type: 'EMAIL_CHANGED', value })}
              onSubmit={() => actor.send({ type: 'SUBMIT' })}
            />
          )}
          {panel === 'code_validation' && (
            <CodeValidationPanel
              phone={phone || phoneDisplay || ''}
              pincode={pincode}
              terms={terms}
              resendIn={countdown}
              busy={busy}
              invalid={field === 'pincode'}
              onPincode={(value) => actor.send({ type: 'PINCODE_CHANGED', value })}
              onTerms={(value) => actor.send({ type: 'TERMS_CHANGED', value })}
              onResend={() => actor.send({ type: 'RESEND' })}
              onSubmit={() => actor.send({ type: 'SUBMIT' })}
            />
          )}
          {panel === 'product_list' && (
            <ProductListPanel
              products={products ? (products.split(',') as ('seguranca' | 'cloud' | 'gestao')[]) : []}
              platform={platform}
              onChoose={(product) => actor.send({ type: 'PRODUCT_CHOSEN', product, platform })}
            />
          )}
          {panel === 'redirect_store' && (
            <RedirectStorePanel
              platform={platform}
              onRedirecting={() => actor.send({ type: 'STORE_REDIRECTED', platform })}
              go={go}
            />
          )}
          {panel === 'partner_login' && <PartnerLoginPanel partner={config.partner ?? ''} url={partnerLoginUrl} />}
        </div>
      </main>
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
  // A new query string (back from the partner with ?code=) starts a new attempt.
  return <Activation key={`${resolved}${location.search}`} variant={resolved} search={location.search} />;
}
