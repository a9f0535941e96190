// The cloud flow's vocabulary: what its attempt API carries (see events/src/flows/cloud/ and
// docs/cloud-flow.md), and the machine's context and events (machine.ts uses them).

import type { AttemptEvent } from '../../lib/attempts/api';
import type { AttemptContext, AttemptRegionEvent, VisitorEvent } from '../../lib/attempts/regions';

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
  'attempt.cancelled',
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

export interface CloudContext extends AttemptContext<CloudCommand, Field> {
  phone: string;
  serial: string;
  code: string;
  /** `(11) *****-5678`, from the server. */
  phoneMasked: string | null;
  /** The server is running a step for this attempt. */
  busy: boolean;
  /** The serial was registered in this activation: the 5 s wait before the sign-in is running. */
  seenSerialRegistered: boolean;
  resendSeconds: number;
}

/** The visitor's events: the shared ones, and BACK from form 2 to form 1. */
export type ClientEvent = VisitorEvent<Field> | { type: 'BACK' } | { type: 'MODAL_SHOWN' } | AttemptRegionEvent;

export type CloudEvent = ClientEvent | DomainEvent;
