import './staff.css';
import { useState, type ReactNode } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { roleLabel, signOut, type StaffSession } from '../../lib/staff/api';
import { ANALYSIS_PATH, HOME_PATH, SIGN_IN_PATH } from '../../lib/staff/session';

interface Props {
  /** null on the sign-in page and while the session is being read. */
  session: StaffSession | null;
  children: ReactNode;
}

/** The console's pages a role may open, when it has more than the one it starts at. */
function navFor(role: StaffSession['role']): { to: string; label: string }[] {
  switch (role) {
    case 'admin':
      return [
        { to: HOME_PATH, label: 'Buscar tentativas' },
        { to: ANALYSIS_PATH, label: 'Funis' },
      ];
    case 'analyst':
      return [{ to: ANALYSIS_PATH, label: 'Funis' }];
    default:
      return [];
  }
}

/**
 * The console's frame: skip link, a header with who is signed in, the pages the role may open
 * (analysts and admins) and "Sair", the content.
 */
export function StaffShell({ session, children }: Props) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);
  const nav = session ? navFor(session.role) : [];

  const leave = async () => {
    setLeaving(true);
    try {
      await signOut();
    } catch {
      // Signed out or not, the agent leaves: the server forgets an idle session by itself.
    }
    navigate(SIGN_IN_PATH, { replace: true });
  };

  return (
    <div className="sp-app">
      <a href="#conteudo" className="skip-link">
        Pular para o conteúdo
      </a>
      <header className="sp-header">
        <div className="sp-header__bar">
          <Link to={session?.role === 'analyst' ? ANALYSIS_PATH : HOME_PATH} className="sp-header__brand">
            <span className="sp-header__logo" aria-hidden="true">
              EXA
            </span>
            <span>{session?.role === 'analyst' ? 'Console de análise' : 'Console de suporte'}</span>
          </Link>
          {nav.length > 0 && (
            <nav className="sp-nav" aria-label="Páginas do console">
              <ul className="sp-nav__list">
                {nav.map((item) => (
                  <li key={item.to}>
                    <NavLink to={item.to} end={false} className="sp-nav__link">
                      {item.label}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          )}
          {session && (
            <div className="sp-header__staff">
              <p className="sp-header__who">
                <span className="sp-visually-hidden">Conectado como </span>
                <span className="sp-header__email">{session.email}</span>
                <span className="sp-role" data-role={session.role}>
                  {roleLabel(session.role)}
                </span>
              </p>
              <button type="button" className="sp-button sp-button--ghost" onClick={leave} disabled={leaving}>
                Sair
              </button>
            </div>
          )}
        </div>
      </header>
      <main id="conteudo" tabIndex={-1} className="sp-main">
        {children}
      </main>
    </div>
  );
}
