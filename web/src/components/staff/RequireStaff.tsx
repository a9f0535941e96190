// A console page's gate: GET /api/staff/session first; without a session (401) the page hands
// over to the sign-in page, which brings the agent back here; a role the page is not for sees
// `denied`. The console's shell frames every state, so the header stays put while it loads.

import { QueryClientProvider } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { getStaffSession, StaffApiError, type StaffRole, type StaffSession } from '../../lib/staff/api';
import { staffQueryClient } from '../../lib/staff/query';
import { signInPathFor, StaffContext } from '../../lib/staff/session';
import { StaffShell } from './StaffShell';

type State =
  | { kind: 'loading' }
  | { kind: 'signed_out' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; session: StaffSession };

interface RequireStaffProps {
  children: ReactNode;
  /** The roles the page is for; the others see `denied` and the page makes no request. */
  roles: readonly StaffRole[];
  denied: ReactNode;
}

export function RequireStaff({ children, roles, denied }: RequireStaffProps) {
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
        if (error instanceof StaffApiError && error.status === 401) setState({ kind: 'signed_out' });
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
    <QueryClientProvider client={staffQueryClient}>
      <StaffContext.Provider value={session ? { session, expired } : null}>
        <StaffShell session={session}>{content}</StaffShell>
      </StaffContext.Provider>
    </QueryClientProvider>
  );
}
