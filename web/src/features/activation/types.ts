// The activation flow's vocabulary: the domain events the panel region follows, the machine's
// context and events, and what starts an attempt (machine.ts uses them).

import type {
  AttemptContext,
  AttemptRegionEvent,
  Command,
  CommandInput as AttemptCommandInput,
  FieldChanged,
  VisitorEvent,
} from '../../lib/attempts/regions';
import type { Step, Variant } from './chain';

export const ACTIVATION_FLOW = 'activation';
/** Spec section 9: the activation's resend countdown. */
export const RESEND_SECONDS = 60;

/** The visitor's fields; a refusal names one. */
export type Field = 'phone' | 'cpf_cnpj' | 'licence' | 'pincode' | 'email' | 'terms';

export type Platform = 'ios' | 'android' | 'desktop';
export type Product = 'seguranca' | 'cloud' | 'gestao';

/** The machine's `panel` states: the spec's panels, and the first one while the attempt starts. */
export type Panel =
  | 'starting'
  | 'partner_login'
  | 'send_code'
  | 'email'
  | 'code_validation'
  | 'product_list'
  | 'redirect_store';

/** The domain event types the panel region follows (events/src/flows/activation/events.rs). */
export const DOMAIN_EVENT_TYPES = [
  'attempt.started',
  'partner.login_prepared',
  'customer.found',
  'customer.not_found',
  'phone.submitted',
  'email.submitted',
  'partner.logged_in',
  'partner.login_refused',
  'partner.plan_found',
  'carrier.token_obtained',
  'document.authorized',
  'document.refused',
  'code.sent',
  'code.send_failed',
  'code.resend_requested',
  'code.submitted',
  'code.validated',
  'code.rejected',
  'authorization.granted',
  'authorization.refused',
  'identity.verified',
  'packs.fetched',
  'subscription.created',
  'serial.not_found',
  'step.failed',
  'step.gave_up',
  'store.redirected',
  'product.chosen',
  'attempt.cancelled',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];
export type DomainEvent = { type: DomainEventType; data: Record<string, unknown>; at: string };

export function isDomainEventType(type: string): type is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(type);
}

export interface StartInput {
  variant: Variant;
  licenca?: string | null;
  code?: string | null;
  /** The OAuth `state` the partner sent back with `code`; the server checks it. */
  state?: string | null;
  returnUrl?: string | null;
  /** False in tests that feed events by hand. */
  autostart?: boolean;
  /** The attempt this tab left on this page, read back instead of starting a new one. */
  resume?: string | null;
  /** What "Alterar número" / "Começar de novo" keeps of the previous attempt's form. */
  kept?: KeptFields;
}

export interface KeptFields {
  phone: string;
  licenceInput: string;
  cpfCnpj: string;
}

export interface ActivationContext extends AttemptContext<Command, Field> {
  /** The page's variant; the server's `attempt.started` confirms it. */
  variant: Variant;
  start: StartInput;
  // Mirrored from the server's events.
  startedVariant: Variant | null;
  pending: Step | null;
  resending: boolean;
  licence: string | null;
  licenceLocked: boolean;
  phoneDisplay: string | null;
  resendUntil: number | null;
  products: Product[];
  planId: string | null;
  partnerLoginUrl: string | null;
  returnUrl: string | null;
  // The visitor's side.
  now: number;
  phone: string;
  licenceInput: string;
  cpfCnpj: string;
  email: string;
  pincode: string;
  terms: boolean;
}

/** The fields the visitor types in (the terms are a checkbox). */
export type TextField = Exclude<Field, 'terms'>;

/** Typing in one of the text fields. */
export type TypedEvent = FieldChanged<TextField>;

export type ActivationEvent =
  | DomainEvent
  | AttemptRegionEvent
  | { type: 'clock.tick'; now: number }
  | VisitorEvent<TextField>
  | FieldChanged<'terms', boolean>
  | { type: 'STORE_REDIRECTED'; platform: Platform }
  | { type: 'PRODUCT_CHOSEN'; product: Product; platform: Platform };

export type CommandInput = AttemptCommandInput<Command>;
