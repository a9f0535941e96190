// What the cloud attempt API carries (see events/src/flows/cloud/ and docs/cloud-flow.md).

import type { AttemptEvent } from '../../lib/attempts/api';

/** The flow name of `POST /api/attempts` and the stream category. */
export const CLOUD_FLOW = 'cloud';

/** The domain events of events/src/flows/cloud/events.rs the machine reacts to. */
export const DOMAIN_EVENT_TYPES = [
  'details.submitted',
  'phone.checked',
  'phone.refused',
  'code.sent',
  'code.send_failed',
  'code.resend_requested',
  'code.resent',
  'code.resend_failed',
  'details.reopened',
  'code.submitted',
  'code.validated',
  'code.rejected',
  'serial.registered',
  'serial.rejected',
  'custom_token.obtained',
  'custom_token.failed',
  'account.signed_in',
  'sign_in.failed',
  'cloud.activated',
  'step.gave_up',
] as const;

export type DomainEventType = (typeof DOMAIN_EVENT_TYPES)[number];

export interface DomainEvent {
  type: DomainEventType;
  data: Record<string, unknown> | null;
  at?: string;
}

export function isDomainEventType(type: string): type is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(type);
}

export type CloudCommand =
  | { type: 'start'; phone: string; serial: string }
  | { type: 'submit_details'; phone: string; serial: string }
  | { type: 'resend' }
  | { type: 'back' }
  | { type: 'submit_code'; code: string };

export type ServerEvent = AttemptEvent;

export type Field = 'phone' | 'serial' | 'code';

export type Panel = 'details' | 'code' | 'success' | 'done';
