// The staff API client shared by the console's features (support look-up, analysts' funnels;
// docs/support.md, docs/funnels.md). The session's CSRF token lives in this module only (never in
// storage): GET or POST /api/staff/session sets it, sign-out forgets it, and every POST and DELETE
// sends it as X-CSRF-Token. Requests are same-origin, so the browser adds Origin.

export type StaffRole = 'support' | 'analyst' | 'admin';

export interface StaffSession {
  email: string;
  role: StaffRole;
  csrf_token: string;
}

export const NETWORK_MESSAGE = 'Não foi possível falar com o servidor. Verifique a conexão e tente de novo.';

/** A refusal with the server's Portuguese message, or a network failure (status 0). */
export class StaffApiError extends Error {
  readonly status: number;
  /** The input a 400 is about (`{"message": …, "field": "to"}`), when the server names one. */
  readonly field: string | null;
  constructor(status: number, message: string, field: string | null = null) {
    super(message);
    this.name = 'StaffApiError';
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

/** One call of a staff API: JSON in and out, the CSRF header on writes, errors as StaffApiError. */
export async function staffRequest<T>(url: string, init: RequestInit = {}): Promise<T> {
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
    throw new StaffApiError(0, NETWORK_MESSAGE);
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => null)) as (T & { message?: unknown; field?: unknown }) | null;
  if (!response.ok || body === null) {
    const message = typeof body?.message === 'string' && body.message ? body.message : fallbackMessage(response.status);
    const field = !response.ok && typeof body?.field === 'string' && body.field ? body.field : null;
    throw new StaffApiError(response.status, message, field);
  }
  return body;
}

/**
 * A staff API call answered with a file (a CSV export): the same headers and errors as
 * `staffRequest`, the body as a Blob and the file name from Content-Disposition.
 */
export async function staffFile(url: string, init: RequestInit = {}): Promise<{ blob: Blob; name: string | null }> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(init.headers);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  if ((method === 'POST' || method === 'DELETE') && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  let response: Response;
  try {
    response = await fetch(url, { ...init, method, headers, credentials: 'same-origin' });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new StaffApiError(0, NETWORK_MESSAGE);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { message?: unknown } | null;
    const message = typeof body?.message === 'string' && body.message ? body.message : fallbackMessage(response.status);
    throw new StaffApiError(response.status, message);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? null;
  return { blob: await response.blob(), name };
}

/** A GET of a staff API with the same errors. */
export function staffGet<T>(url: string, signal?: AbortSignal): Promise<T> {
  return staffRequest<T>(url, { signal });
}

export async function getStaffSession(signal?: AbortSignal): Promise<StaffSession> {
  const session = await staffRequest<StaffSession>('/api/staff/session', { signal });
  csrfToken = session.csrf_token;
  return session;
}

/** `code`: the second factor (TOTP digits or a recovery code), once the server asked for it. */
export async function signIn(email: string, password: string, code?: string): Promise<StaffSession> {
  const session = await staffRequest<StaffSession>('/api/staff/session', {
    method: 'POST',
    body: JSON.stringify(code === undefined ? { email, password } : { email, password, code }),
  });
  csrfToken = session.csrf_token;
  return session;
}

export async function signOut(): Promise<void> {
  try {
    await staffRequest<void>('/api/staff/session', { method: 'DELETE' });
  } finally {
    csrfToken = null;
  }
}

export const ROLE_LABELS: Record<StaffRole, string> = {
  support: 'Suporte',
  analyst: 'Analista',
  admin: 'Administração',
};

export const roleLabel = (role: string) => ROLE_LABELS[role as StaffRole] ?? role;
