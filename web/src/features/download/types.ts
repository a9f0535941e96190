// The desktop download's vocabulary: its domain events as the browser receives them (personal
// data redacted, mirroring events/src/flows/download/events.rs), its commands, and the
// machine's context and events (machine.ts uses them).

import type { AttemptContext, AttemptRegionEvent, VisitorEvent } from '../../lib/attempts/regions';

/** The flow name of `POST /api/attempts` and the stream category. */
export const DOWNLOAD_FLOW = 'download';

export type Panel =
  | 'phone_entry'
  | 'code_entry'
  | 'user_not_found'
  | 'partner_choice'
  | 'download_done'
  | 'licences_in_use'
  | 'plan_without_antivirus'
  | 'download_error';

/** The step the indicator highlights up to, per panel (same table as the Rust view). */
export const STEP_OF: Record<Panel, 1 | 2 | 3> = {
  phone_entry: 1,
  code_entry: 2,
  user_not_found: 2,
  partner_choice: 3,
  download_done: 3,
  licences_in_use: 3,
  plan_without_antivirus: 3,
  download_error: 3,
};

export type Pending =
  | 'send_code'
  | 'resend_code'
  | 'confirm_code'
  | 'find_user'
  | 'list_partners'
  | 'request_download'
  | 'list_devices'
  | 'remove_device';

export interface Partner {
  id: string;
  name: string;
  logotype: string;
  /** Whether the partner has a priority subscription (its id stays on the server). */
  has_subscription: boolean;
}

export interface Device {
  /** The attempt's reference to the device (the upstream id stays on the server). */
  id: string;
  device_name: string;
  os_type: string;
  os_version: string;
  country: string;
  first_login: number | null;
  last_login: number | null;
}

type Empty = Record<string, never> | null;
/** Upstream reasons are for support only: the server never sends them to the browser (docs/security.md). */
type Reason = { reason?: string };

export type DomainEvent =
  | { type: 'download.started'; data: { os: string; browser: string } }
  | { type: 'phone.submitted'; data: { masked: string } }
  | { type: 'code.sent'; data: Empty }
  | { type: 'code.resend_requested'; data: Empty }
  | { type: 'code.resent'; data: Empty }
  | { type: 'code.send_failed'; data: Reason }
  | { type: 'code.submitted'; data: { code: string } }
  | { type: 'code.confirmed'; data: Empty }
  | { type: 'code.rejected'; data: Reason }
  | { type: 'user.found'; data: Empty }
  | { type: 'user.not_found'; data: Empty }
  | { type: 'user.lookup_failed'; data: Reason }
  | { type: 'partners.listed'; data: { partners: Partner[] } }
  | { type: 'partners.failed'; data: Reason }
  | { type: 'partner.chosen'; data: { partner_id: string } }
  | { type: 'download.granted'; data: Empty }
  | { type: 'licences.full'; data: Empty }
  | { type: 'plan.without_antivirus'; data: Empty }
  | { type: 'download.failed'; data: Reason }
  | { type: 'download.retry_requested'; data: Empty }
  | { type: 'devices.listed'; data: { devices: Device[] } }
  | { type: 'devices.failed'; data: Reason }
  | { type: 'device.removal_requested'; data: { device_id: string } }
  | { type: 'device.removed'; data: { device_id: string } }
  | { type: 'device.removal_failed'; data: { device_id: string } & Reason }
  | { type: 'attempt.restarted'; data: Empty }
  | { type: 'step.gave_up'; data: { step: string } & Partial<Reason> }
  | { type: 'attempt.cancelled'; data: { step?: string | null } };

export type DomainEventType = DomainEvent['type'];

export const DOMAIN_EVENT_TYPES: readonly DomainEventType[] = [
  'download.started', 'phone.submitted', 'code.sent', 'code.resend_requested', 'code.resent',
  'code.send_failed', 'code.submitted', 'code.confirmed', 'code.rejected', 'user.found',
  'user.not_found', 'user.lookup_failed', 'partners.listed', 'partners.failed', 'partner.chosen', 'download.granted',
  'licences.full', 'plan.without_antivirus', 'download.failed', 'download.retry_requested',
  'devices.listed', 'devices.failed', 'device.removal_requested', 'device.removed',
  'device.removal_failed', 'attempt.restarted', 'step.gave_up', 'attempt.cancelled',
];

export function isDomainEventType(type: string): type is DomainEventType {
  return (DOMAIN_EVENT_TYPES as readonly string[]).includes(type);
}

/** Commands of events/src/flows/download/commands.rs. */
export type DownloadCommand =
  | { type: 'start'; os: string; browser: string }
  | { type: 'submit_phone'; phone: string }
  | { type: 'resend_code' }
  | { type: 'submit_code'; code: string }
  | { type: 'choose_partner'; partner_id: string }
  | { type: 'remove_device'; device_id: string }
  | { type: 'retry_download' }
  | { type: 'restart' };

export interface Snackbar {
  id: number;
  message: string;
}

/** The fields a refusal names: the phone, the code, its resend, the partner card, the device. */
export type Field = 'phone' | 'code' | 'resend' | 'partner' | 'device';

/** What the page starts the attempt with: the route's os and the detected browser. */
export interface StartInput {
  os: string;
  browser: string;
  /** The attempt this tab left on this page, read back instead of starting a new one. */
  resume?: string | null;
  /** The phone "Alterar número" keeps from the previous attempt. */
  phone?: string;
}

export interface DownloadContext extends AttemptContext<DownloadCommand, Field> {
  /** The attempt to start on arrival; none in tests that feed events by hand. */
  start: StartInput | null;
  // The visitor's fields.
  phone: string;
  code: string;
  /** The partner card chosen on the partner-choice panel. */
  partner: string | null;
  // Mirrored from the server's events.
  maskedPhone: string | null;
  pending: Pending | null;
  codeError: boolean;
  partners: Partner[];
  devices: Device[];
  snackbar: Snackbar | null;
  snackbarSeq: number;
  downloads: number;
  /** Client clock (ms) when 'Reenviar código' comes back; counted from when the news arrived. */
  resendAt: number | null;
  /** The device whose disconnection awaits 'Sim' or 'Não'. */
  confirmDevice: string | null;
  /**
   * 'Continuar' was pressed before the attempt existed (its start still on its way, or waiting
   * in line past capacity): the phone goes as soon as the start is in.
   */
  phoneQueued: boolean;
}

/** The fields the visitor types in or chooses. */
export type TypedField = 'phone' | 'code' | 'partner';

/** The visitor's events: the shared ones (DISMISS closes the snackbar), and the download's own. */
export type ClientEvent =
  | VisitorEvent<TypedField>
  | { type: 'RETRY_DOWNLOAD' }
  | { type: 'RESTART' }
  | { type: 'DISCONNECT'; deviceId: string }
  | { type: 'CONFIRM_YES' }
  | { type: 'CONFIRM_NO' }
  | { type: 'SNACKBAR_TIMEOUT'; id: number }
  | AttemptRegionEvent;

export type DownloadEvent = DomainEvent | ClientEvent;
