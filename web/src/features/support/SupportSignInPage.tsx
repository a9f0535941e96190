// `/suporte/entrar`: e-mail and password → POST /api/staff/session, then back to the page the
// agent came from (`?volta=`) or the role's home: the look-up, or the funnels for an analyst.
// Support and admin have a second factor: once the server answers about the field `code`, the
// page asks for the authenticator's 6 digits (or a recovery code) and sends all three again.

import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePageMeta } from '../../components/Seo';
import { StaffShell } from '../../components/staff/StaffShell';
import { getStaffSession, signIn, StaffApiError } from '../../lib/staff/api';
import { safeReturnPath } from '../../lib/staff/session';

export default function SupportSignInPage() {
  usePageMeta({
    title: 'Entrar no console de suporte',
    description: 'Acesso restrito à equipe de suporte da EXA.',
    noindex: true,
  });
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const volta = params.get('volta');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [askCode, setAskCode] = useState(false);
  // Bumped by each refusal about the code: the field takes the focus once it is on screen.
  const [codeAsked, setCodeAsked] = useState(0);
  const [missing, setMissing] = useState({ email: false, password: false, code: false });
  const [busy, setBusy] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);

  // Already signed in (another tab, a bookmark): straight on.
  useEffect(() => {
    const controller = new AbortController();
    getStaffSession(controller.signal)
      .then((session) => navigate(safeReturnPath(volta, session.role), { replace: true }))
      .catch(() => {});
    return () => controller.abort();
  }, [navigate, volta]);

  useEffect(() => {
    if (codeAsked > 0) codeRef.current?.focus();
  }, [codeAsked]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const lacking = { email: !email.trim(), password: !password, code: askCode && !code.trim() };
    setMissing(lacking);
    if (lacking.email || lacking.password || lacking.code) {
      (lacking.email ? emailRef : lacking.password ? passwordRef : codeRef).current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(email.trim(), password, askCode ? code.trim() : undefined);
      navigate(safeReturnPath(volta, session.role), { replace: true });
    } catch (failure) {
      setBusy(false);
      setCode('');
      setError(
        failure instanceof StaffApiError ? failure.message : 'Não foi possível entrar agora. Tente de novo em instantes.',
      );
      // The message is announced by role="alert". A refusal about the code keeps the password
      // (it was right) and asks for the code; any other has the password typed again.
      if (failure instanceof StaffApiError && failure.field === 'code') {
        setAskCode(true);
        setCodeAsked((n) => n + 1);
      } else {
        setPassword('');
        passwordRef.current?.focus();
      }
    }
  };

  return (
    <StaffShell session={null}>
      <div className="sp-signin">
        <section className="sp-card sp-signin__card" aria-labelledby="sp-signin-title">
          <h1 id="sp-signin-title" className="sp-title">
            Entrar no console de suporte
          </h1>
          <p className="sp-muted">Acesso restrito à equipe da EXA. Tudo o que você faz aqui fica registrado.</p>
          {error && (
            <div className="sp-alert sp-alert--error" role="alert">
              <p>{error}</p>
            </div>
          )}
          <form onSubmit={submit} noValidate className="sp-form">
            <div className="sp-field">
              <label htmlFor="sp-email" className="sp-label">
                E-mail
              </label>
              <input
                ref={emailRef}
                id="sp-email"
                className="sp-input"
                type="email"
                name="email"
                autoComplete="username"
                inputMode="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
                aria-invalid={missing.email || undefined}
                aria-describedby={missing.email ? 'sp-email-error' : undefined}
                required
              />
              {missing.email && (
                <p id="sp-email-error" className="sp-field__error">
                  Digite seu e-mail.
                </p>
              )}
            </div>
            <div className="sp-field">
              <label htmlFor="sp-password" className="sp-label">
                Senha
              </label>
              <input
                ref={passwordRef}
                id="sp-password"
                className="sp-input"
                type="password"
                name="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={missing.password || undefined}
                aria-describedby={missing.password ? 'sp-password-error' : undefined}
                required
              />
              {missing.password && (
                <p id="sp-password-error" className="sp-field__error">
                  Digite sua senha.
                </p>
              )}
            </div>
            {askCode && (
              <div className="sp-field">
                <label htmlFor="sp-code" className="sp-label">
                  Código de verificação
                </label>
                <input
                  ref={codeRef}
                  id="sp-code"
                  className="sp-input"
                  type="text"
                  name="code"
                  autoComplete="one-time-code"
                  spellCheck={false}
                  maxLength={32}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  aria-invalid={missing.code || undefined}
                  aria-describedby={missing.code ? 'sp-code-hint sp-code-error' : 'sp-code-hint'}
                  required
                />
                <p id="sp-code-hint" className="sp-muted">
                  Os 6 dígitos do aplicativo autenticador ou um dos seus códigos de recuperação.
                </p>
                {missing.code && (
                  <p id="sp-code-error" className="sp-field__error">
                    Digite o código de verificação.
                  </p>
                )}
              </div>
            )}
            <button type="submit" className="sp-button sp-button--primary sp-button--block" disabled={busy}>
              {busy ? 'Entrando…' : 'Entrar'}
            </button>
          </form>
        </section>
      </div>
    </StaffShell>
  );
}
