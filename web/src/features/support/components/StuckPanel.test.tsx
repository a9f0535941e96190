import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, renderAt, SUPPORT } from '../../../testing/staff';
import { IN_FLIGHT } from '../fixtures';

let api: FakeApi;
const STUCK = {
  ...IN_FLIGHT,
  stuck: {
    kind: 'retrying',
    step: 'send_code',
    since: '2025-03-15T12:00:00Z',
    minutes: 42,
    tries: 3,
    next_try_at: '2025-03-15T12:43:00Z',
  },
};
const stuckPage = (total: number, attempts: unknown[]) => ({
  status: 200,
  body: { query: { minutes: 15, page: 1 }, total, page: 1, pages: 1, attempts },
});

beforeEach(() => {
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on('GET /api/support/stuck', (sent) =>
      sent.url.includes('minutes=60') ? stuckPage(0, []) : stuckPage(1, [STUCK]),
    );
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

describe('the look-up page counts stuck attempts', () => {
  it('shows the count past 15 minutes across flows and lists them on demand', async () => {
    renderAt('/suporte');
    const count = await screen.findByTestId('stuck-count');
    expect(count.textContent).toBe('1 tentativa com etapa repetindo ou atrasada há mais de 15 min, em todos os fluxos.');
    expect(api.calls('GET /api/support/stuck').map((c) => c.url)).toEqual(['/api/support/stuck?minutes=15']);

    fireEvent.click(screen.getByRole('button', { name: 'Ver tentativas paradas' }));
    const list = screen.getByRole('list');
    expect(within(list).getByText('Repetindo').getAttribute('data-stuck')).toBe('retrying');
    expect(within(list).getByText(/42 min · 3 tentativas/)).toBeTruthy();
    expect(within(list).getByRole('link', { name: /^Ver tentativa/ }).getAttribute('href')).toBe(
      `/suporte/tentativas/${IN_FLIGHT.id}`,
    );
  });

  it('asks again with another threshold', async () => {
    renderAt('/suporte');
    await screen.findByTestId('stuck-count');
    fireEvent.change(screen.getByLabelText('Paradas há mais de'), { target: { value: '60' } });
    await waitFor(() =>
      expect(screen.getByTestId('stuck-count').textContent).toBe(
        '0 tentativas com etapa repetindo ou atrasada há mais de 60 min, em todos os fluxos.',
      ),
    );
    expect(screen.queryByRole('button', { name: 'Ver tentativas paradas' })).toBeNull();
  });
});
