import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, ANALYST, FakeApi, renderAt, SUPPORT } from '../../testing/staff';
import type { FunnelReply } from './api';
import { previousParams } from './compare';
import { CARRIER_BY_OS, CARRIER_QUERY } from './fixtures';
import { defaultQuery, paramsOf } from './query';

let api: FakeApi;
const FUNNEL = 'GET /api/analytics/funnel';
const location = () => screen.getByTestId('location').textContent;
const FUNNEL_PATH = '/api/analytics/funnel';
const allFunnelCalls = () => api.calls(FUNNEL).map((c) => c.url);
const periodBefore = (url: string) => `${FUNNEL_PATH}?${previousParams(new URLSearchParams(url.split('?')[1])).toString()}`;
/** The questions asked, without the comparison's question about the period before each. */
const funnelCalls = () => {
  const urls = allFunnelCalls();
  const before = new Set(urls.map(periodBefore));
  return urls.filter((url) => !before.has(url));
};

beforeEach(() => {
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: ANALYST })
    .on(FUNNEL, { status: 200, body: CARRIER_BY_OS });
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

describe('/analise funnels', () => {
  it('writes the default query (last 30 days, São Paulo) into the URL and asks the API the same', async () => {
    renderAt('/analise');
    const expected = paramsOf(defaultQuery()).toString();
    await waitFor(() => expect(location()).toBe(`/analise?${expected}`));
    await waitFor(() => expect(funnelCalls()).toEqual([`/api/analytics/funnel?${expected}`]));
    expect((screen.getByLabelText('Fluxo') as HTMLSelectElement).value).toBe('activation');
    expect((screen.getByLabelText('Janela (dias)') as HTMLInputElement).value).toBe('14');
    await waitFor(() =>
      expect(document.head.querySelector('meta[name="robots"]')?.getAttribute('content')).toMatch(/noindex/),
    );
  });

  it('builds the query string and URL from the form', async () => {
    renderAt('/analise?flow=download&from=2026-10-01&to=2026-10-31&window=7&order=any');
    expect(await screen.findByRole('heading', { level: 1, name: 'Funis de conversão' })).toBeTruthy();
    await waitFor(() => expect(funnelCalls()).toHaveLength(1));
    // Download has no variants.
    expect(screen.queryByLabelText('Variante')).toBeNull();
    fireEvent.change(screen.getByLabelText('Fluxo'), { target: { value: 'activation' } });
    const variant = screen.getByLabelText('Variante') as HTMLSelectElement;
    expect([...variant.options].map((o) => o.textContent)).toContain('TIM (/seguranca/tim)');
    fireEvent.change(variant, { target: { value: 'carrier' } });
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-11-01' } });
    fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2026-11-23' } });
    fireEvent.change(screen.getByLabelText('Janela (dias)'), { target: { value: '14' } });
    fireEvent.change(screen.getByLabelText('Ordem'), { target: { value: 'sequential' } });
    fireEvent.change(screen.getByLabelText('Detalhar por'), { target: { value: 'os' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ver funil' }));
    await waitFor(() => expect(location()).toBe(`/analise?${CARRIER_QUERY}`));
    await waitFor(() => expect(funnelCalls()[1]).toBe(`/api/analytics/funnel?${CARRIER_QUERY}`));
    expect(funnelCalls()[0]).toBe(
      '/api/analytics/funnel?flow=download&from=2026-10-01&to=2026-10-31&window=7&order=any',
    );

    // Back to download: the variant is not sent.
    fireEvent.change(screen.getByLabelText('Fluxo'), { target: { value: 'download' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ver funil' }));
    await waitFor(() =>
      expect(location()).toBe('/analise?flow=download&from=2026-11-01&to=2026-11-23&window=14&order=sequential&breakdown=os'),
    );
  });

  it('checks the dates and the window before asking, keeping what was typed', async () => {
    renderAt(`/analise?${CARRIER_QUERY}`);
    await waitFor(() => expect(funnelCalls()).toHaveLength(1));
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-11-20' } });
    fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2026-11-19' } });
    fireEvent.change(screen.getByLabelText('Janela (dias)'), { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ver funil' }));
    const to = screen.getByLabelText('Até') as HTMLInputElement;
    const window = screen.getByLabelText('Janela (dias)') as HTMLInputElement;
    expect(await screen.findByText('A data final precisa ser igual ou posterior à data inicial.')).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(to.getAttribute('aria-describedby')).toBe('an-to-error');
    expect(document.getElementById('an-to-error')?.textContent).toBe('A data final precisa ser igual ou posterior à data inicial.');
    expect(document.getElementById('an-window-error')?.textContent).toBe(
      'A janela precisa ser um número inteiro de dias, a partir de 1.',
    );
    expect(document.activeElement).toBe(to);
    expect(to.value).toBe('2026-11-19');
    expect(window.value).toBe('0');
    expect(location()).toBe(`/analise?${CARRIER_QUERY}`);
    expect(funnelCalls()).toHaveLength(1);
  });

  it('shows a pasted URL’s bad dates beside the field without asking the server', async () => {
    renderAt('/analise?flow=cloud&from=2026-11-10&to=2026-11-01&window=14&order=sequential');
    expect(await screen.findByText('A data final precisa ser igual ou posterior à data inicial.')).toBeTruthy();
    expect(funnelCalls()).toHaveLength(0);
  });

  it('shows the server’s 400 message beside its field and keeps the values', async () => {
    const message = 'A janela pode ter no máximo 90 dias.';
    api.on(FUNNEL, { status: 400, body: { message, field: 'window' } });
    renderAt('/analise?flow=cloud&from=2026-11-01&to=2026-11-23&window=400&order=strict');
    expect(await screen.findByText(message)).toBeTruthy();
    expect(document.getElementById('an-window-error')?.textContent).toBe(message);
    expect((screen.getByLabelText('Janela (dias)') as HTMLInputElement).value).toBe('400');
    expect((screen.getByLabelText('Ordem') as HTMLSelectElement).value).toBe('strict');
    expect((screen.getByLabelText('Fluxo') as HTMLSelectElement).value).toBe('cloud');
  });

  it('shows a 400 without a known field above the results', async () => {
    api.on(FUNNEL, { status: 400, body: { message: 'Variante desconhecida para esse fluxo.' } });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect((await screen.findByRole('alert')).textContent).toBe('Variante desconhecida para esse fluxo.');
  });

  it('asks the period before as well and shows the change per step', async () => {
    const before: FunnelReply = {
      ...CARRIER_BY_OS,
      from: '2026-10-09',
      to: '2026-10-31',
      groups: CARRIER_BY_OS.groups.map((g) => ({
        ...g,
        attempts: 80,
        steps: g.steps.map((step, i) => (i === 1 ? { ...step, from_first: 0.7, median_ms: 7_700 } : step)),
      })),
    };
    const previousUrl = periodBefore(`${FUNNEL_PATH}?${CARRIER_QUERY}`);
    api.on(`GET ${previousUrl}`, { status: 200, body: before });
    renderAt(`/analise?${CARRIER_QUERY}`);
    const table = await screen.findByRole('table', { name: 'android · antes: 80 tentativas' });
    expect(allFunnelCalls()).toContain(previousUrl);
    expect(previousUrl).toContain('from=2026-10-09&to=2026-10-31');
    expect(screen.getByText(/De 09\/10\/2026 a 31\/10\/2026/)).toBeTruthy();
    const [, , second] = within(table).getAllByRole('row');
    expect(within(second).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '70%',
      '83,3%',
      '+13,3 p.p.',
      '7,7 s',
      '5,2 s',
      '2,5 s mais rápido',
    ]);
  });

  it('lists what drives drop-off with its odds ratio', async () => {
    api.on(FUNNEL, {
      status: 200,
      body: {
        ...CARRIER_BY_OS,
        drivers: [
          { dimension: 'os', value: 'iOS', attempts: 40, dropped: 30, drop_rate: 0.75, others_drop_rate: 0.25, odds_ratio: 8.5726 },
          { dimension: 'weekday', value: 'sábado', attempts: 40, dropped: 4, drop_rate: 0.1, others_drop_rate: 0.3, odds_ratio: 0.4 },
        ],
      },
    });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect(await screen.findByRole('heading', { level: 2, name: 'O que pesa nas desistências' })).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Valores que pesam nas desistências' });
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Sistema operacional',
      '40',
      '75%',
      '25%',
      '8,57× mais desistências',
    ]);
    expect(within(second).getByRole('rowheader').textContent).toBe('sábado');
    expect(within(second).getAllByRole('cell').at(-1)?.textContent).toBe('2,5× menos desistências');
  });

  it('says when the funnel was read from a standby more than a second behind', async () => {
    api.on(FUNNEL, { status: 200, body: { ...CARRIER_BY_OS, read_lag_seconds: 125 } });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect((await screen.findByText(/lidos de uma cópia do banco/)).textContent).toBe(
      'Estes dados foram lidos de uma cópia do banco e podem estar atrasados em cerca de 2 min.',
    );
  });

  it("renders the contract's numbers in the step table, pt-BR", async () => {
    renderAt(`/analise?${CARRIER_QUERY}`);
    const table = await screen.findByRole('table', { name: 'android · 120 tentativas' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Etapa',
      'Entraram',
      '% da anterior',
      '% da primeira',
      'Desistiram',
      'Principais recusas',
      'Tempo desde a etapa anterior (mediana)',
      'Tempo desde a etapa anterior (p90)',
    ]);
    const [, first, second] = within(table).getAllByRole('row');
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((c) => c.textContent);
    expect(within(first).getByRole('rowheader').textContent).toBe('Abriu a página');
    expect(cells(first)).toEqual([
      '120',
      '100%',
      '100%',
      '20Ver tentativas que pararam aqui (Abriu a página)',
      'Número de celular não encontrado. (7)',
      '—',
      '—',
    ]);
    expect(within(second).getByRole('rowheader').textContent).toBe('Enviou celular e CPF/CNPJ');
    expect(cells(second)).toEqual(['100', '83,3%', '83,3%', '0', '—', '5,2 s', '19 s']);

    expect(screen.getByText('Dados atualizados em 23/11/2026, 09:00 (horário de Brasília).')).toBeTruthy();
    expect(
      screen.getByText(
        'Ativação EXA Segurança · TIM (/seguranca/tim) · 01/11/2026 a 23/11/2026 · janela de 14 dias · ordem sequencial · por sistema operacional · contando tentativas',
      ),
    ).toBeTruthy();
  });

  it('gives each chart a text alternative with the same numbers', async () => {
    renderAt(`/analise?${CARRIER_QUERY}`);
    await screen.findByRole('table', { name: 'android · 120 tentativas' });
    const charts = screen.getAllByRole('img').map((img) => img.getAttribute('aria-label'));
    expect(charts).toEqual([
      'Gráfico de barras do funil. android: Abriu a página, 120 (100%); Enviou celular e CPF/CNPJ, 100 (83,3%).',
      'Histograma do tempo da etapa anterior até “Enviou celular e CPF/CNPJ”, 4 tentativas. de 4,98 s a 5,08 s: 3; de 5,08 s a 5,19 s: 1.',
      'Linha da conversão por dia. 01/11: 55%. 22 dias sem tentativas.',
    ]);
    expect(screen.getByText('5,2 s', { selector: '.an-stats strong' })).toBeTruthy();
  });

  it('draws the histogram of the chosen group, with its median and p90', async () => {
    const ios = {
      ...CARRIER_BY_OS.groups[0],
      key: 'ios',
      attempts: 30,
      steps: CARRIER_BY_OS.groups[0].steps.map((s) => ({ ...s, median_ms: s.median_ms && 190_000, durations: s.durations.slice(0, 1) })),
    };
    api.on(FUNNEL, { status: 200, body: { ...CARRIER_BY_OS, groups: [...CARRIER_BY_OS.groups, ios] } });
    renderAt(`/analise?${CARRIER_QUERY}`);
    const group = await screen.findByLabelText('Grupo');
    expect((screen.getByLabelText('Etapa') as HTMLSelectElement).value).toBe('form_sent');
    const histogram = () => screen.getAllByRole('img')[1].getAttribute('aria-label');
    // All groups: the two groups' buckets added up, no single median to show.
    expect(histogram()).toBe(
      'Histograma do tempo da etapa anterior até “Enviou celular e CPF/CNPJ”, 7 tentativas. de 4,98 s a 5,08 s: 6; de 5,08 s a 5,19 s: 1.',
    );
    expect(document.querySelector('.an-stats')).toBeNull();
    fireEvent.change(group, { target: { value: 'ios' } });
    expect(histogram()).toBe('Histograma do tempo da etapa anterior até “Enviou celular e CPF/CNPJ”, 3 tentativas. de 4,98 s a 5,08 s: 3.');
    expect(document.querySelector('.an-stats')?.textContent).toBe('Mediana 3 min 10 s · p90 19 s · 3 tentativas');
  });

  it('says so when nothing started in the period', async () => {
    const empty: FunnelReply = {
      ...CARRIER_BY_OS,
      breakdown: null,
      groups: [{ key: 'todas', attempts: 0, steps: CARRIER_BY_OS.groups[0].steps.map((s) => ({ ...s, entered: 0 })) }],
      per_day: [],
    };
    api.on(FUNNEL, { status: 200, body: empty });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Nenhuma tentativa nesse período.' })).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows the API’s 403 message as a permission notice', async () => {
    api.on(FUNNEL, { status: 403, body: { message: 'Você não tem permissão para esta ação.' } });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sem permissão para ver os funis' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Você não tem permissão para esta ação.');
  });

  it('tells a support agent they have no permission, without asking for the funnel', async () => {
    api.on('GET /api/staff/session', { status: 200, body: SUPPORT });
    renderAt(`/analise?${CARRIER_QUERY}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sem permissão para ver os funis' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Você não tem permissão para esta ação.');
    expect(screen.getByRole('link', { name: 'busca do suporte' }).getAttribute('href')).toBe('/suporte');
    // Support's header keeps no console navigation.
    expect(screen.queryByRole('navigation', { name: 'Páginas do console' })).toBeNull();
    expect(funnelCalls()).toHaveLength(0);
  });

  it('sends a 401 from the funnel API to sign-in, coming back with ?volta=', async () => {
    api.on(FUNNEL, { status: 401, body: { message: 'Sua sessão terminou. Entre de novo.' } });
    renderAt(`/analise?${CARRIER_QUERY}`);
    await waitFor(() =>
      expect(location()).toBe(`/suporte/entrar?volta=${encodeURIComponent(`/analise?${CARRIER_QUERY}`)}`),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Entrar no console de suporte' })).toBeTruthy();
  });

  it('sends a visitor without a session to sign-in with ?volta=/analise', async () => {
    api.on('GET /api/staff/session', { status: 401, body: { message: 'Sua sessão terminou. Entre de novo.' } });
    renderAt('/analise');
    await screen.findByRole('heading', { level: 1, name: 'Entrar no console de suporte' });
    expect(location()).toBe('/suporte/entrar?volta=%2Fanalise');
    expect(funnelCalls()).toHaveLength(0);
  });

  it('lists "Funis" in the header for analysts and admins', async () => {
    renderAt(`/analise?${CARRIER_QUERY}`);
    const nav = await screen.findByRole('navigation', { name: 'Páginas do console' });
    expect(within(nav).getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([['Funis', '/analise']]);
    expect(within(nav).getByRole('link', { name: 'Funis' }).getAttribute('aria-current')).toBe('page');
  });

  it('lets an admin in, with both console pages in the header', async () => {
    api.on('GET /api/staff/session', { status: 200, body: ADMIN });
    renderAt(`/analise?${CARRIER_QUERY}`);
    await screen.findByRole('table', { name: 'android · 120 tentativas' });
    const nav = screen.getByRole('navigation', { name: 'Páginas do console' });
    expect(within(nav).getAllByRole('link').map((a) => a.textContent)).toEqual(['Buscar tentativas', 'Funis']);
  });
});
