// The staff and support API of docs/support.md. The session's CSRF token lives in this module
// only (never in storage): GET or POST /api/staff/session sets it, sign-out forgets it, and every
// POST and DELETE sends it as X-CSRF-Token. Requests are same-origin, so the browser adds Origin.

export type StaffRole = 'support' | 'analyst' | 'admin';

export interface StaffSession {
  email: string;
  role: StaffRole;
  csrf_token: string;
}

export type OutcomeKind = 'completed' | 'refused' | 'in_flight' | 'abandoned' | 'gave_up';

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
}

export interface RevealReply {
  field: string;
  value: string;
}

export interface EraseReply {
  subjects: number;
  attempts: number;
  secrets: number;
}

/** The search keys of GET /api/support/attempts, one per kind the look-up accepts. */
export const SEARCH_KEYS = ['phone', 'document', 'email', 'serial', 'id'] as const;
export type SearchKey = (typeof SEARCH_KEYS)[number];
export const FILTER_KEYS = ['flow', 'outcome', 'from', 'to', 'page'] as const;

export const NETWORK_MESSAGE = 'Não foi possível falar com o servidor. Verifique a conexão e tente de novo.';

/** A refusal with the server's Portuguese message, or a network failure (status 0). */
export class SupportApiError extends Error {
  readonly status: number;
  /** The input a 400 is about (`{"message": …, "field": "to"}`), when the server names one. */
  readonly field: string | null;
  constructor(status: number, message: string, field: string | null = null) {
    super(message);
    this.name = 'SupportApiError';
    this.status = status;
    this.field = field;
  }
}

let csrfToken: string | null = null;

export function currentCsrfToken(): string | null {
  return csrfToken;
}

function fallbackMessage(status: number): string {
  switch (status) {
    case 401:
      return 'Sua sessão terminou. Entre de novo.';
    case 403:
      return 'Você não tem permissão para esta ação.';
    case 404:
      return 'Não encontramos o que você procurou.';
    case 429:
      return 'Muitas tentativas. Aguarde alguns minutos e tente de novo.';
    default:
      return 'Algo não funcionou como esperado. Tente de novo em instantes.';
  }
}

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  headers.set('accept', 'application/json');
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  if ((method === 'POST' || method === 'DELETE') && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  let response: Response;
  try {
    response = await fetch(url, { ...init, method, headers, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new SupportApiError(0, NETWORK_MESSAGE);
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as (T & { message?: unknown; field?: unknown }) | null;
  if (!response.ok || body === null) {
    const message = typeof body?.message === 'string' && body.message ? body.message : fallbackMessage(response.status);
    const field = !response.ok && typeof body?.field === 'string' && body.field ? body.field : null;
    throw new SupportApiError(response.status, message, field);
  }
  return body;
}

/** A GET of another staff API (the analysts' funnels, features/analytics) with the same errors. */
export function staffGet<T>(url: string, signal?: AbortSignal): Promise<T> {
  return call<T>(url, { signal });
}

export async function getStaffSession(signal?: AbortSignal): Promise<StaffSession> {
  const session = await call<StaffSession>('/api/staff/session', { signal });
  csrfToken = session.csrf_token;
  return session;
}

export async function signIn(email: string, password: string): Promise<StaffSession> {
  const session = await call<StaffSession>('/api/staff/session', {
    method: 'POST',
    body: JSON.stringify({ email, password }),
  });
  csrfToken = session.csrf_token;
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await call<void>('/api/staff/session', { method: 'DELETE' });
  } finally {
    csrfToken = null;
  }
}

/** `params` are the API's own query parameters (the look-up page keeps the same ones in its URL). */
export function searchAttempts(params: URLSearchParams, signal?: AbortSignal): Promise<SearchReply> {
  return call<SearchReply>(`/api/support/attempts?${params.toString()}`, { signal });
}

const attemptPath = (id: string) => `/api/support/attempts/${encodeURIComponent(id)}`;

export function getAttemptDetail(id: string, signal?: AbortSignal): Promise<Detail> {
  return call<Detail>(attemptPath(id), { signal });
}

export const historyUrl = (id: string) => `${attemptPath(id)}/history`;
export const streamUrl = (id: string) => `${attemptPath(id)}/stream`;

export function revealField(id: string, field: string, reason: string): Promise<RevealReply> {
  return call<RevealReply>(`${attemptPath(id)}/reveal`, {
    method: 'POST',
    body: JSON.stringify({ field, reason }),
  });
}

/** Erases the person behind the attempt's phone (admin; docs/support.md). */
export function erasePersonOfAttempt(id: string): Promise<EraseReply> {
  return call<EraseReply>('/api/support/erase', {
    method: 'POST',
    body: JSON.stringify({ attempt: id, confirm: true }),
  });
}
