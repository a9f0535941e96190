// The support API of docs/support.md, on the shared staff client (lib/staff/api.ts: session,
// CSRF token, errors).

import { staffFile, staffRequest } from '../../lib/staff/api';

export type OutcomeKind = 'completed' | 'refused' | 'in_flight' | 'abandoned' | 'gave_up' | 'cancelled';

export interface Outcome {
  kind: OutcomeKind;
  message?: string | null;
  step?: string | null;
  minutes?: number | null;
}

export interface Summary {
  id: string;
  flow: string;
  variant?: string | null;
  started_at: string;
  updated_at: string;
  last_step?: string | null;
  outcome: Outcome;
  duration_ms: number;
  retries: number;
}

export interface SearchReply {
  query: Record<string, unknown>;
  total: number;
  page: number;
  pages: number;
  attempts: Summary[];
  /** Seconds the database read was behind the primary (0 unless a standby, issue 28). */
  read_lag_seconds?: number;
}

export interface Seen {
  panel?: string | null;
  message?: string | null;
}

export interface TimelineEntry {
  version: number;
  type: string;
  at: string;
  actor: string;
  step?: string | null;
  data?: unknown;
  seen?: Seen | null;
}

export interface Detail extends Summary {
  view?: Record<string, unknown> | null;
  /** Masked personal data; the contract leaves the shape open (see fieldsOf in format.ts). */
  fields?: unknown;
  timeline: TimelineEntry[];
  staff_trail?: unknown[] | null;
  /** Support's notes (issue 27), opened for the console. */
  notes?: Note[] | null;
}

export interface Note {
  version: number;
  at: string;
  by: string;
  text: string;
  erased: boolean;
}

/** What an action on an attempt appended: the first new event's position and the events. */
export interface ActionReply {
  attempt: string;
  version: number;
  events: TimelineEntry[];
}

export interface RevealReply {
  field: string;
  value: string;
}

/** A subject the erasure met and did not erase (issue 26): the admin decides on it. */
export interface EraseLeft {
  kind: 'phone' | 'cpf_cnpj' | 'email' | 'staff_email';
  why: 'not_proved' | 'staff';
  attempts: string[];
}

export interface EraseReply {
  subjects: number;
  attempts: number;
  secrets: number;
  left?: EraseLeft[];
}

/** The search keys of POST /api/support/attempts/search, one per kind the look-up accepts. */
export const SEARCH_KEYS = ['phone', 'document', 'email', 'serial', 'id'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];
export const FILTER_KEYS = ['flow', 'outcome', 'from', 'to', 'page'] as const;

/**
 * `params` are the look-up's keys and filters; they go in a POST's body, never a URL the
 * proxies, access logs or browser history would keep (issue 26).
 */
export function searchAttempts(params: URLSearchParams, signal?: AbortSignal): Promise<SearchReply> {
  return staffRequest<SearchReply>('/api/support/attempts/search', {
    method: 'POST',
    body: JSON.stringify(Object.fromEntries(params)),
    signal,
  });
}

const attemptPath = (id: string) => `/api/support/attempts/${encodeURIComponent(id)}`;

export function getAttemptDetail(id: string, signal?: AbortSignal): Promise<Detail> {
  return staffRequest<Detail>(attemptPath(id), { signal });
}

export const historyUrl = (id: string) => `${attemptPath(id)}/history`;
export const streamUrl = (id: string) => `${attemptPath(id)}/stream`;

export function revealField(id: string, field: string, reason: string): Promise<RevealReply> {
  return staffRequest<RevealReply>(`${attemptPath(id)}/reveal`, {
    method: 'POST',
    body: JSON.stringify({ field, reason }),
  });
}

/** Erases the attempt and the person who proved a phone in it (admin; docs/support.md). */
export function erasePersonOfAttempt(id: string): Promise<EraseReply> {
  return staffRequest<EraseReply>('/api/support/erase', {
    method: 'POST',
    body: JSON.stringify({ attempt: id, confirm: true }),
  });
}

/** Why a step is stuck (GET /api/support/stuck). */
export interface Stuck {
  kind: 'retrying' | 'overdue';
  step: string;
  since: string;
  minutes: number;
  tries: number;
  next_try_at: string;
}

export interface StuckReply {
  query: { minutes: number; flow?: string | null; page: number };
  total: number;
  page: number;
  pages: number;
  attempts: (Summary & { stuck: Stuck })[];
}

/** The attempts whose step has waited past `minutes` (retrying or overdue), across flows. */
export function getStuck(minutes: number, page = 1, signal?: AbortSignal): Promise<StuckReply> {
  const params = new URLSearchParams({ minutes: String(minutes) });
  if (page > 1) params.set('page', String(page));
  return staffRequest<StuckReply>(`/api/support/stuck?${params.toString()}`, { signal });
}

/** Brings the step waiting on its back-off forward: the runner takes it at once (audited). */
export function retryStep(id: string, reason: string): Promise<ActionReply> {
  return staffRequest<ActionReply>(`${attemptPath(id)}/retry`, { method: 'POST', body: JSON.stringify({ reason }) });
}

/** Ends the attempt: the runner stops and the visitor's page says so (audited). */
export function cancelAttempt(id: string, reason: string): Promise<ActionReply> {
  return staffRequest<ActionReply>(`${attemptPath(id)}/cancel`, { method: 'POST', body: JSON.stringify({ reason }) });
}

/** A note on the attempt, kept sealed with its personal data (audited). */
export function addNote(id: string, text: string): Promise<ActionReply> {
  return staffRequest<ActionReply>(`${attemptPath(id)}/notes`, { method: 'POST', body: JSON.stringify({ text }) });
}

/** The look-up's results (every page) as a CSV file, masked; the search travels in the body. */
export function exportAttempts(params: URLSearchParams): Promise<{ blob: Blob; name: string | null }> {
  const body = Object.fromEntries([...params].filter(([key]) => key !== 'page'));
  return staffFile('/api/support/attempts/export', { method: 'POST', body: JSON.stringify(body) });
}
