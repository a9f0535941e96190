import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANALYST, FakeApi, renderAt, SUPPORT } from '../../testing/staff';

let api: FakeApi;
const NO_SESSION = { status: 401, body: { message: 'Entre para continuar.' } };

beforeEach(() => {
  api = new FakeApi().on('GET /api/staff/session', NO_SESSION);
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

async function fillAndSubmit(email: string, password: string) {
  fireEvent.change(await screen.findByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Senha'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('/suporte/entrar', () => {
  it('shows the server message on 401 and clears the password', async () => {
    api.on('POST /api/staff/session', { status: 401, body: { message: 'E-mail ou senha incorretos.' } });
    renderAt('/suporte/entrar');
    expect(await screen.findByRole('heading', { level: 1, name: 'Entrar no console de suporte' })).toBeTruthy();
    await fillAndSubmit('bia@exa.com.br', 'senha-errada-123');
    expect((await screen.findByRole('alert')).textContent).toBe('E-mail ou senha incorretos.');
    expect(api.calls('POST /api/staff/session')[0].body).toEqual({ email: 'bia@exa.com.br', password: 'senha-errada-123' });
    expect((screen.getByLabelText('Senha') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('Senha'));
  });

  it('asks for the second factor when the server does and sends it with the password', async () => {
    const asked = 'Digite o código de 6 dígitos do seu aplicativo autenticador ou um código de recuperação.';
    api.on('POST /api/staff/session', ({ body }) =>
      (body as { code?: string }).code === '123456'
        ? { status: 200, body: SUPPORT }
        : { status: 401, body: { message: asked, field: 'code' } },
    );
    renderAt('/suporte/entrar');
    await fillAndSubmit('bia@exa.com.br', 'uma-senha-longa-1');
    expect((await screen.findByRole('alert')).textContent).toBe(asked);
    const code = (await screen.findByLabelText('Código de verificação')) as HTMLInputElement;
    expect((screen.getByLabelText('Senha') as HTMLInputElement).value).toBe('uma-senha-longa-1');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Digite o código de verificação.')).toBeTruthy();
    expect(api.calls('POST /api/staff/session')).toHaveLength(1);
    fireEvent.change(code, { target: { value: ' 123456 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(api.calls('POST /api/staff/session')).toHaveLength(2));
    expect(api.calls('POST /api/staff/session')[1].body).toEqual({
      email: 'bia@exa.com.br',
      password: 'uma-senha-longa-1',
      code: '123456',
    });
  });

  it('shows the lock-out message on 429', async () => {
    const message = 'Muitas tentativas de entrada. Tente de novo em 15 minutos.';
    api.on('POST /api/staff/session', { status: 429, body: { message } });
    renderAt('/suporte/entrar');
    await fillAndSubmit('bia@exa.com.br', 'qualquer-senha-1');
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });

  it('asks for both fields before calling the server', async () => {
    renderAt('/suporte/entrar');
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Digite seu e-mail.')).toBeTruthy();
    expect(screen.getByText('Digite sua senha.')).toBeTruthy();
    expect(api.calls('POST /api/staff/session')).toHaveLength(0);
  });

  it('goes back to the ?volta= page after signing in', async () => {
    let signedIn = false;
    api
      .on('GET /api/staff/session', () => (signedIn ? { status: 200, body: SUPPORT } : NO_SESSION))
      .on('POST /api/staff/session', () => {
        signedIn = true;
        return { status: 200, body: SUPPORT };
      })
      .on('POST /api/support/attempts/search', { status: 200, body: { query: {}, total: 0, page: 1, pages: 0, attempts: [] } });
    renderAt('/suporte/entrar?volta=%2Fsuporte%3Fphone%3D11910000001');
    await fillAndSubmit('bia@exa.com.br', 'uma-senha-longa-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/suporte?phone=11910000001'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Buscar tentativas' })).toBeTruthy();
  });

  it('takes an analyst without ?volta= to the funnels', async () => {
    let signedIn = false;
    api
      .on('GET /api/staff/session', () => (signedIn ? { status: 200, body: ANALYST } : NO_SESSION))
      .on('POST /api/staff/session', () => {
        signedIn = true;
        return { status: 200, body: ANALYST };
      })
      .on('GET /api/analytics/funnel', { status: 403, body: { message: 'Você não tem permissão para esta ação.' } });
    renderAt('/suporte/entrar');
    await fillAndSubmit('caio@exa.com.br', 'uma-senha-longa-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/analise\?flow=activation&/));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sem permissão para ver os funis' })).toBeTruthy();
  });

  it('goes back to a /analise ?volta= page after signing in', async () => {
    let signedIn = false;
    api
      .on('GET /api/staff/session', () => (signedIn ? { status: 200, body: ANALYST } : NO_SESSION))
      .on('POST /api/staff/session', () => {
        signedIn = true;
        return { status: 200, body: ANALYST };
      })
      .on('GET /api/analytics/funnel', { status: 403, body: { message: 'Você não tem permissão para esta ação.' } });
    renderAt('/suporte/entrar?volta=%2Fanalise%3Fflow%3Dcloud');
    await fillAndSubmit('caio@exa.com.br', 'uma-senha-longa-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toMatch(/^\/analise\?flow=cloud&/));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sem permissão para ver os funis' })).toBeTruthy();
  });

  it('never follows ?volta= outside the console', async () => {
    api.on('POST /api/staff/session', { status: 200, body: SUPPORT });
    renderAt('/suporte/entrar?volta=%2F%2Fexemplo.test%2Fsuporte');
    await fillAndSubmit('bia@exa.com.br', 'uma-senha-longa-1');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/suporte'));
  });

  it('is noindex', async () => {
    renderAt('/suporte/entrar');
    await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/));
  });
});
