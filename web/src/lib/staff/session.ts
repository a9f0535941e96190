// The staff session every console page starts from (components/staff/RequireStaff.tsx reads it):
// the console's paths, where `?volta=` may lead back, and the session as context for the pages.

import { createContext, useCallback, useContext } from 'react';
import { StaffApiError, type StaffRole, type StaffSession } from './api';

export const SIGN_IN_PATH = '/suporte/entrar';
export const HOME_PATH = '/suporte';
/** The analysts' funnels (features/analytics). */
export const ANALYSIS_PATH = '/analise';

/** The console pages `?volta=` may lead back to: each path itself, or below it. */
const CONSOLE_PATHS = [HOME_PATH, ANALYSIS_PATH];

/** Where a staff member starts: analysts at the funnels, support and admin at the look-up. */
export function homeFor(role: StaffRole | null | undefined): string {
  return role === 'analyst' ? ANALYSIS_PATH : HOME_PATH;
}

/** The sign-in page's address that brings the agent back to `here` afterwards. */
export function signInPathFor(here: string): string {
  return here === HOME_PATH ? SIGN_IN_PATH : `${SIGN_IN_PATH}?volta=${encodeURIComponent(here)}`;
}

/**
 * `?volta=` is honoured only for console pages (`/suporte…`, `/analise…`) on this origin, so the
 * sign-in page cannot send anyone elsewhere; otherwise the role's home (homeFor).
 */
export function safeReturnPath(volta: string | null, role?: StaffRole | null): string {
  const home = homeFor(role);
  if (!volta || !volta.startsWith('/') || volta.startsWith('//') || volta.includes('\\')) return home;
  const base = 'https://console.invalid';
  let url: URL;
  try {
    url = new URL(volta, base);
  } catch {
    return home;
  }
  if (url.origin !== base) return home;
  const path = url.pathname;
  if (path === SIGN_IN_PATH || path.startsWith(`${SIGN_IN_PATH}/`)) return home;
  if (!CONSOLE_PATHS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))) return home;
  return `${path}${url.search}${url.hash}`;
}

export interface StaffContextValue {
  session: StaffSession;
  /** Any later 401 (the session expired meanwhile): back to sign-in, then back here. */
  expired: () => void;
}

export const StaffContext = createContext<StaffContextValue | null>(null);

export function useStaff(): StaffContextValue {
  const value = useContext(StaffContext);
  if (!value) throw new Error('useStaff outside RequireStaff');
  return value;
}

/** Turns an API failure into what a page shows, sending a 401 to sign-in. */
export function useApiFailure(): (error: unknown) => string | null {
  const { expired } = useStaff();
  return useCallback(
    (error: unknown) => {
      if ((error as Error)?.name === 'AbortError') return null;
      if (error instanceof StaffApiError) {
        if (error.status === 401) {
          expired();
          return null;
        }
        return error.message;
      }
      return 'Algo não funcionou como esperado. Tente de novo em instantes.';
    },
    [expired],
  );
}

