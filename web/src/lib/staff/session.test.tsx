import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { homeFor, safeReturnPath } from './session';
import { ANALYST, FakeApi, renderAt, SUPPORT } from '../../testing/staff';

let api: FakeApi;

beforeEach(() => {
  api = new FakeApi();
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

describe('the staff session on every console page', () => {
  it('sends a visitor without a session to sign-in', async () => {
    api.on('GET /api/staff/session', { status: 401, body: { message: 'Entre para continuar.' } });
    renderAt('/suporte');
    expect(await screen.findByRole('heading', { level: 1, name: 'Entrar no console de suporte' })).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/suporte/entrar');
  });

  it('remembers the attempt page it came from in ?volta=', async () => {
    api.on('GET /api/staff/session', { status: 401, body: { message: 'Entre para continuar.' } });
    renderAt('/suporte/tentativas/activation-abc?vista=completa');
    await screen.findByRole('heading', { level: 1, name: 'Entrar no console de suporte' });
    expect(screen.getByTestId('location').textContent).toBe(
      `/suporte/entrar?volta=${encodeURIComponent('/suporte/tentativas/activation-abc?vista=completa')}`,
    );
    expect(api.calls('GET /api/support/attempts/activation-abc')).toHaveLength(0);
  });

  it('shows who is signed in, and "Sair" sends DELETE with the CSRF token', async () => {
    api.on('GET /api/staff/session', { status: 200, body: SUPPORT }).on('DELETE /api/staff/session', { status: 204 });
    renderAt('/suporte');
    await waitFor(() => expect(screen.getByRole('banner').textContent).toContain('bia@exa.com.br'));
    expect(screen.getByRole('banner').textContent).toContain('Suporte');
    api.on('GET /api/staff/session', { status: 401, body: { message: 'Entre para continuar.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sair' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/suporte/entrar'));
    const [del] = api.calls('DELETE /api/staff/session');
    expect(del.headers.get('X-CSRF-Token')).toBe(SUPPORT.csrf_token);
  });

  it('tells an analyst the console is for support, points to the funnels and looks nothing up', async () => {
    api.on('GET /api/staff/session', { status: 200, body: ANALYST });
    renderAt('/suporte?phone=11910000001');
    expect(await screen.findByRole('heading', { level: 1, name: 'Este console é do suporte' })).toBeTruthy();
    expect(screen.getByText(/Os funis de conversão estão em/)).toBeTruthy();
    const funnels = screen.getAllByRole('link', { name: 'Funis' });
    expect(funnels.map((a) => a.getAttribute('href'))).toEqual(['/analise', '/analise']);
    expect(api.calls('POST /api/support/attempts/search')).toHaveLength(0);
  });

  it('shows the support API’s 403 message on an attempt page', async () => {
    api
      .on('GET /api/staff/session', { status: 200, body: SUPPORT })
      .on('GET /api/support/attempts/x', { status: 403, body: { message: 'Você não tem permissão para esta ação.' } });
    renderAt('/suporte/tentativas/x');
    expect((await screen.findByRole('alert')).textContent).toContain('Você não tem permissão para esta ação.');
  });

  it('offers to try again when the server cannot be reached', async () => {
    let fail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (fail) throw new TypeError('Failed to fetch');
        // The session answers; the attempt does not exist (any other body would be read as one).
        if (url === '/api/staff/session') return new Response(JSON.stringify(SUPPORT), { status: 200 });
        return new Response(JSON.stringify({ message: 'Tentativa não encontrada.' }), { status: 404 });
      }),
    );
    renderAt('/suporte/tentativas/x');
    expect((await screen.findByRole('alert')).textContent).toContain('Não foi possível falar com o servidor');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Tentar de novo' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Tentar de novo' })).toBeNull());
  });
});

describe('safeReturnPath (?volta= after sign-in)', () => {
  it('follows console pages, /suporte and /analise, with their query', () => {
    expect(safeReturnPath('/suporte?phone=11910000001')).toBe('/suporte?phone=11910000001');
    expect(safeReturnPath('/suporte/tentativas/activation-abc?vista=completa')).toBe(
      '/suporte/tentativas/activation-abc?vista=completa',
    );
    expect(safeReturnPath('/analise')).toBe('/analise');
    expect(safeReturnPath('/analise?flow=activation&variant=carrier&from=2026-11-01', 'analyst')).toBe(
      '/analise?flow=activation&variant=carrier&from=2026-11-01',
    );
  });

  it('sends anything else to the role’s home', () => {
    for (const volta of [
      null,
      '',
      '//exemplo.test/suporte',
      '//exemplo.test/analise',
      '/\\exemplo.test/analise',
      'https://exemplo.test/analise',
      'javascript:alert(1)//analise',
      '/analisex',
      '/suportex',
      '/analise/../contato',
      '/suporte/entrar',
      '/suporte/entrar?volta=%2Fanalise',
      '/',
      'analise',
    ]) {
      expect(safeReturnPath(volta)).toBe('/suporte');
      expect(safeReturnPath(volta, 'analyst')).toBe('/analise');
    }
  });

  it('starts analysts at the funnels, support and admin at the look-up', () => {
    expect(homeFor('analyst')).toBe('/analise');
    expect(homeFor('support')).toBe('/suporte');
    expect(homeFor('admin')).toBe('/suporte');
    expect(homeFor(null)).toBe('/suporte');
  });
});
