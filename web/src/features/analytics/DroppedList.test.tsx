import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, ANALYST, FakeApi, renderAt } from '../../testing/staff';
import type { DroppedAttempt, DroppedReply } from './api';
import { CARRIER_BY_OS, CARRIER_QUERY } from './fixtures';

const DROPPED = 'GET /api/analytics/funnel/dropped';
let api: FakeApi;

const row = (n: number, anonymous: boolean): DroppedAttempt => ({
  id: anonymous ? `a1b2c3d4e5f6a7b${n}` : `activation-0000000${n}`,
  console: anonymous ? null : `/suporte/tentativas/activation-0000000${n}`,
  started_at: `2026-11-2${n}T09:1${n}:00-03:00`,
  variant: 'carrier',
  os: 'android',
  platform: 'mobile',
  refusal: n === 1 ? 'Número de celular não encontrado.' : null,
});

function reply(page: number, anonymous: boolean): DroppedReply {
  return {
    count: 'attempts',
    step: 0,
    step_key: 'started',
    step_label: 'Abriu a página',
    group: 'android',
    ids: anonymous ? 'anonymous' : 'attempt',
    page,
    per_page: 50,
    total: 51,
    pages: 2,
    attempts: page === 1 ? [row(2, anonymous), row(1, anonymous)] : [row(3, anonymous)],
  };
}

/** Answers the page the request asks for. */
const pages = (anonymous: boolean) => (sent: { url: string }) => ({
  status: 200,
  body: reply(Number(new URL(sent.url, 'http://x').searchParams.get('page')), anonymous),
});

beforeEach(() => {
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: ANALYST })
    .on('GET /api/analytics/funnel', { status: 200, body: CARRIER_BY_OS })
    .on(DROPPED, pages(true));
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

async function openDropOff() {
  renderAt(`/analise?${CARRIER_QUERY}`);
  const table = await screen.findByRole('table', { name: 'android · 120 tentativas' });
  const button = within(table).getByRole('button', { name: 'Ver tentativas que pararam aqui (Abriu a página)' });
  expect(button.getAttribute('aria-expanded')).toBe('false');
  fireEvent.click(button);
  return button;
}

describe('from a drop-off to its attempts', () => {
  it('asks for the step of the same question and group, and lists anonymous ids for an analyst', async () => {
    const button = await openDropOff();
    const list = await screen.findByRole('region', { name: 'Pararam em “Abriu a página” · android' });
    expect(button.getAttribute('aria-expanded')).toBe('true');
    await within(list).findByText('a1b2c3d4e5f6a7b2');
    expect(api.calls(DROPPED).map((c) => c.url)).toEqual([
      `/api/analytics/funnel/dropped?${CARRIER_QUERY}&step=0&page=1&group=android`,
    ]);
    expect(within(list).queryAllByRole('link')).toHaveLength(0);
    expect(within(list).getByText(/Os códigos são anônimos/)).toBeTruthy();
    expect(within(list).getByText('51 tentativas pararam aqui', { exact: false })).toBeTruthy();
    const first = within(list).getAllByRole('row')[2];
    expect(within(first).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      '21/11/2026, 09:11',
      'TIM',
      'android',
      'Celular',
      'Número de celular não encontrado.',
    ]);
    expect(document.activeElement?.textContent).toBe('Pararam em “Abriu a página” · android');
  });

  it('pages, and gives the focus back to its button when closed', async () => {
    const button = await openDropOff();
    const list = await screen.findByRole('region', { name: 'Pararam em “Abriu a página” · android' });
    expect(await within(list).findByText('Página 1 de 2')).toBeTruthy();
    fireEvent.click(within(list).getByRole('button', { name: 'Próxima' }));
    await within(list).findByText('a1b2c3d4e5f6a7b3');
    expect(within(list).getByText('Página 2 de 2')).toBeTruthy();
    expect(api.calls(DROPPED).at(-1)?.url).toContain('&step=0&page=2&group=android');
    fireEvent.click(within(list).getByRole('button', { name: 'Fechar a lista' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: /Pararam em/ })).toBeNull());
    expect(document.activeElement).toBe(button);
  });

  it('links an admin to each attempt in the support console', async () => {
    api.on('GET /api/staff/session', { status: 200, body: ADMIN }).on(DROPPED, pages(false));
    await openDropOff();
    const list = await screen.findByRole('region', { name: 'Pararam em “Abriu a página” · android' });
    const link = await within(list).findByRole('link', { name: 'activation-00000002' });
    expect(link.getAttribute('href')).toBe('/suporte/tentativas/activation-00000002');
  });

  it('asks for people when the form says so, and the headings say it', async () => {
    api.on('GET /api/analytics/funnel', (sent) => ({
      status: 200,
      body: { ...CARRIER_BY_OS, count: sent.url.includes('count=people') ? 'people' : 'attempts' },
    }));
    renderAt(`/analise?${CARRIER_QUERY}`);
    await screen.findByRole('table', { name: 'android · 120 tentativas' });
    expect(screen.getByRole('heading', { level: 2, name: 'Etapas, em tentativas' })).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Contar'), { target: { value: 'people' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ver funil' }));
    await waitFor(() =>
      expect(api.calls('GET /api/analytics/funnel').map((c) => c.url)).toContain(
        `/api/analytics/funnel?${CARRIER_QUERY}&count=people`,
      ),
    );
    expect(await screen.findByRole('heading', { level: 2, name: 'Etapas, em pessoas' })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'android · 120 pessoas' })).toBeTruthy();
  });
});
