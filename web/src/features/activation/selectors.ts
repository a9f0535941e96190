// Small reads of the machine's snapshot: the panel, the loader, the busy button's label, and the
// machine's view in the shape of the Rust projector's (events/src/flows/activation/view.rs), so
// the shared vectors compare both sides field by field.

import { resendIn } from './machine';
import type { ActivationSnapshot } from './machine';
import type { Panel, Product } from './types';
import type { Variant } from './chain';

export interface View {
  panel: Panel;
  variant: Variant | null;
  busy: boolean;
  error: string | null;
  licence: string | null;
  licence_locked: boolean;
  phone_display: string | null;
  resend_in: number;
  products: Product[];
  plan_id: string | null;
  partner_login_url: string | null;
}

export function panelOf(snapshot: ActivationSnapshot): Panel {
  const value = snapshot.value as { panel: Panel };
  return value.panel;
}

/** Commands that record something without the visitor waiting on them. */
const QUIET_COMMANDS = ['record_store_redirect', 'choose_product'];

/** The page's loader: the view's `busy`, or a command the visitor waits on being sent. */
export function isBusy(snapshot: ActivationSnapshot): boolean {
  return (
    snapshot.context.pending !== null ||
    panelOf(snapshot) === 'starting' ||
    snapshot.matches({ request: 'resuming' }) ||
    (snapshot.matches({ request: 'sending' }) && !QUIET_COMMANDS.includes(snapshot.context.outgoing?.type ?? ''))
  );
}

export function viewOf(snapshot: ActivationSnapshot): View {
  const context = snapshot.context;
  const panel = panelOf(snapshot);
  return {
    panel,
    variant: context.startedVariant,
    busy: context.pending !== null || panel === 'starting',
    error: context.error,
    licence: context.licence,
    licence_locked: context.licenceLocked,
    phone_display: context.phoneDisplay,
    resend_in: resendIn(context),
    products: panel === 'product_list' ? context.products : [],
    plan_id: context.planId,
    partner_login_url: context.partnerLoginUrl,
  };
}

/**
 * What the busy button says: the visitor's own command decides it (sending the phone, the
 * e-mail or the code); before any, the page is loading the attempt or the partner's customer.
 */
export function busyLabelOf(snapshot: ActivationSnapshot): string {
  if (panelOf(snapshot) === 'starting') return 'Carregando…';
  switch (snapshot.context.outgoing?.type) {
    case 'submit_phone':
      return 'Enviando código…';
    case 'submit_email':
      return 'Validando…';
    case 'submit_code':
      return 'Ativando…';
    case 'resend_code':
      return 'Reenviando código…';
    default:
      return 'Carregando…';
  }
}

/**
 * Whether the page has a licence from its link: the server's answer once the attempt started
 * (it ignores a value the form could not hold), the link itself until then.
 */
export function licenceFromLink(snapshot: ActivationSnapshot): boolean {
  const { context } = snapshot;
  if (context.startedVariant === null) return (context.start.licenca ?? '').trim() !== '';
  return context.licence !== null && context.licence !== '';
}
