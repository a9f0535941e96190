import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, renderAt, SUPPORT } from '../../testing/staff';
import { ABANDONED, IN_FLIGHT, REFUSED } from './fixtures';

let api: FakeApi;
const page = (attempts: unknown[], extra: Record<string, unknown> = {}) => ({
  status: 200,
  body: { query: { phone: '(11) *****-0001' }, total: attempts.length, page: 1, pages: 1, attempts, ...extra },
});

beforeEach(() => {
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on('POST /api/support/attempts/search', page([REFUSED, ABANDONED, IN_FLIGHT]))
    .on('GET /api/support/stuck', { status: 200, body: { query: { minutes: 15, page: 1 }, total: 0, page: 1, pages: 1, attempts: [] } });
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

describe('/suporte look-up', () => {
  it("reads an old link's query, takes it out of the address and renders one row per attempt", async () => {
    renderAt('/suporte?phone=11910000001');
    const table = await screen.findByRole('table');
    expect(api.calls('POST /api/support/attempts/search').map((c) => c.body)).toEqual([{ phone: '11910000001' }]);
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/suporte'));
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);

    const [refused, abandoned, inFlight] = rows;
    expect(within(refused).getByText('Ativação EXA Segurança')).toBeTruthy();
    expect(within(refused).getByText('Bradesco Seguros')).toBeTruthy();
    expect(within(refused).getByText('14/03/2025, 10:22:05')).toBeTruthy();
    expect(within(refused).getByText('Recusada').getAttribute('data-outcome')).toBe('refused');
    expect(within(refused).getByText(/Código expirado\. Solicite um novo código\./)).toBeTruthy();
    expect(within(refused).getByText('3 min 12 s')).toBeTruthy();
    expect(within(refused).getByRole('link', { name: /^Ver tentativa/ }).getAttribute('href')).toBe(
      `/suporte/tentativas/${REFUSED.id}`,
    );

    expect(within(abandoned).getByText('Download do antivírus')).toBeTruthy();
    expect(within(abandoned).getByText('Abandonada em “Enviar o código por SMS” após 12 min')).toBeTruthy();
    expect(within(inFlight).getByText('Em andamento')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: /3 tentativas/ })).toBeTruthy();
    // The phone layout's cards carry the same attempts (CSS shows one or the other).
    expect(screen.getAllByRole('heading', { level: 3 })).toHaveLength(3);
  });

  it('accepts a phone in any common form and keeps the query and filters out of the address', async () => {
    renderAt('/suporte');
    const box = await screen.findByLabelText('Telefone');
    fireEvent.change(box, { target: { value: '+55 (11) 91000-0001' } });
    fireEvent.change(screen.getByLabelText('Resultado'), { target: { value: 'refused' } });
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2025-03-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    await screen.findByRole('table');
    expect(api.calls('POST /api/support/attempts/search')[0].body).toEqual({
      phone: '11910000001',
      outcome: 'refused',
      from: '2025-03-01',
    });
    expect(screen.getByTestId('location').textContent).toBe('/suporte');
  });

  it('searches by another kind', async () => {
    renderAt('/suporte');
    fireEvent.change(await screen.findByLabelText('Buscar por'), { target: { value: 'document' } });
    fireEvent.change(screen.getByLabelText('CPF/CNPJ'), { target: { value: '529.982.247-25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    await screen.findByRole('table');
    expect(api.calls('POST /api/support/attempts/search')[0].body).toEqual({ document: '52998224725' });
  });

  it('refuses a malformed phone before asking the server', async () => {
    renderAt('/suporte');
    fireEvent.change(await screen.findByLabelText('Telefone'), { target: { value: '1234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Buscar' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Telefone inválido/);
    expect(api.calls('POST /api/support/attempts/search')).toHaveLength(0);
  });

  it('says when the answer was read from a standby more than a second behind', async () => {
    api.on('POST /api/support/attempts/search', page([REFUSED], { read_lag_seconds: 7.5 }));
    renderAt('/suporte?phone=11910000001');
    await screen.findByRole('table');
    expect(screen.getByText(/lidos de uma cópia do banco/).textContent).toBe(
      'Estes dados foram lidos de uma cópia do banco e podem estar atrasados em cerca de 8 s.',
    );
  });

  it('says so when nothing matches', async () => {
    api.on('POST /api/support/attempts/search', page([]));
    renderAt('/suporte?phone=11910000009');
    expect(await screen.findByRole('heading', { name: 'Nenhuma tentativa encontrada' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it("shows the server's Portuguese message on a refusal", async () => {
    api.on('POST /api/support/attempts/search', { status: 422, body: { message: 'Telefone inválido.' } });
    renderAt('/suporte?phone=999');
    expect((await screen.findByRole('alert')).textContent).toBe('Telefone inválido.');
  });

  it('pages with links that keep the query and hold nothing personal', async () => {
    api.on('POST /api/support/attempts/search', page([REFUSED], { total: 41, page: 2, pages: 3 }));
    renderAt('/suporte?phone=11910000001&flow=activation&page=2');
    const pager = await screen.findByRole('navigation', { name: 'Páginas de resultados' });
    expect(within(pager).getByText('Página 2 de 3')).toBeTruthy();
    expect(within(pager).getByRole('link', { name: 'Anterior' }).getAttribute('href')).toBe('/suporte');
    expect(within(pager).getByRole('link', { name: 'Próxima' }).getAttribute('href')).toBe('/suporte');
    expect(api.calls('POST /api/support/attempts/search')[0].body).toEqual({
      phone: '11910000001',
      flow: 'activation',
      page: '2',
    });
    // The search travels in the body: the API's URL holds nothing personal.
    expect(api.calls('POST /api/support/attempts/search')[0].url).toBe('/api/support/attempts/search');

    fireEvent.click(within(pager).getByRole('link', { name: 'Próxima' }));
    await waitFor(() =>
      expect(api.calls('POST /api/support/attempts/search').map((c) => c.body)).toContainEqual({
        phone: '11910000001',
        flow: 'activation',
        page: '3',
      }),
    );
    expect(screen.getByTestId('location').textContent).toBe('/suporte');
  });

  it('goes to sign-in when the session expired meanwhile', async () => {
    api.on('POST /api/support/attempts/search', { status: 401, body: { message: 'Sessão expirada.' } });
    renderAt('/suporte?phone=11910000001');
    // The way back is the console's home page, without the search.
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/suporte/entrar'));
  });
});
