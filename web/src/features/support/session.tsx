// The staff session every console page starts from: GET /api/staff/session first; without a
// session (401) the page hands over to the sign-in page, which brings the agent back here.

import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { getStaffSession, SupportApiError, type StaffRole, type StaffSession } from './api';
import { SupportShell } from './components/SupportShell';

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

interface StaffContextValue {
  session: StaffSession;
  /** Any later 401 (the session expired meanwhile): back to sign-in, then back here. */
  expired: () => void;
}

const StaffContext = createContext<StaffContextValue | null>(null);

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
      if (error instanceof SupportApiError) {
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

type State =
  | { kind: 'loading' }
  | { kind: 'signed_out' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; session: StaffSession };

/** What a support page shows an analyst (the support API would answer 403 anyway). */
function SupportOnly() {
  return (
    <section className="sp-card" aria-labelledby="sp-analyst-title">
      <h1 id="sp-analyst-title" className="sp-title">
        Este console é do suporte
      </h1>
      <p>
        Seu perfil é de analista: a busca de tentativas e os dados pessoais ficam restritos ao suporte e à
        administração. Os funis de conversão estão em <Link to={ANALYSIS_PATH}>Funis</Link>.
      </p>
    </section>
  );
}

interface RequireStaffProps {
  children: ReactNode;
  /** The roles the page is for; the others see `denied` and the page makes no request. */
  roles?: readonly StaffRole[];
  denied?: ReactNode;
}

const SUPPORT_ROLES: readonly StaffRole[] = ['support', 'admin'];

export function RequireStaff({ children, roles = SUPPORT_ROLES, denied = <SupportOnly /> }: RequireStaffProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const here = `${location.pathname}${location.search}`;
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    getStaffSession(controller.signal)
      .then((session) => setState({ kind: 'ready', session }))
      .catch((error: unknown) => {
        if ((error as Error).name === 'AbortError') return;
        if (error instanceof SupportApiError && error.status === 401) setState({ kind: 'signed_out' });
        else setState({ kind: 'failed', message: (error as Error).message });
      });
    return () => controller.abort();
    // The session is read once per page: filters change the search, not the page.
  }, [location.pathname, attempt]);

  const expired = useCallback(() => navigate(signInPathFor(here), { replace: true }), [navigate, here]);

  if (state.kind === 'signed_out') return <Navigate to={signInPathFor(here)} replace />;
  const session = state.kind === 'ready' ? state.session : null;
  let content: ReactNode;
  if (state.kind === 'loading') {
    content = (
      <p className="sp-loading" role="status">
        Verificando sua sessão…
      </p>
    );
  } else if (state.kind === 'failed') {
    content = (
      <>
        <h1 className="sp-title">Console de suporte</h1>
        <div className="sp-alert sp-alert--error" role="alert">
          <p>{state.message}</p>
          <button type="button" className="sp-button sp-button--secondary" onClick={() => setAttempt((n) => n + 1)}>
            Tentar de novo
          </button>
        </div>
      </>
    );
  } else if (!roles.includes(state.session.role)) {
    content = denied;
  } else {
    content = children;
  }
  // One shell in one place whatever the state, so the header stays put while the session loads.
  return (
    <StaffContext.Provider value={session ? { session, expired } : null}>
      <SupportShell session={session}>{content}</SupportShell>
    </StaffContext.Provider>
  );
}
