import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, renderAt, SUPPORT } from '../../../testing/staff';
import { REFUSED } from '../fixtures';

let api: FakeApi;
const created: Blob[] = [];
const saved: string[] = [];

beforeEach(() => {
  created.length = 0;
  saved.length = 0;
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on('GET /api/support/stuck', { status: 200, body: { query: {}, total: 0, page: 1, pages: 1, attempts: [] } })
    .on('POST /api/support/attempts/search', {
      status: 200,
      body: { query: {}, total: 41, page: 2, pages: 3, attempts: [REFUSED] },
    })
    .on('POST /api/support/attempts/export', { status: 200, body: 'id,fluxo' });
  api.install();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (created.push(blob), 'blob:csv'), revokeObjectURL: () => {} }));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the look-up exports its results as CSV', () => {
  it('posts the same search without the page, with the CSRF token, and saves the file', async () => {
    renderAt('/suporte?phone=11910000001&outcome=refused&page=2');
    fireEvent.click(await screen.findByRole('button', { name: 'Baixar resultados (CSV)' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(saved).toEqual(['tentativas.csv']);
    const [sent] = api.calls('POST /api/support/attempts/export');
    expect(sent.body).toEqual({ phone: '11910000001', outcome: 'refused' });
    expect(sent.headers.get('X-CSRF-Token')).toBe(SUPPORT.csrf_token);
    expect(sent.url).toBe('/api/support/attempts/export');
  });

  it("shows the server's refusal", async () => {
    api.on('POST /api/support/attempts/export', { status: 403, body: { message: 'Você não tem permissão para esta ação.' } });
    renderAt('/suporte?phone=11910000001');
    fireEvent.click(await screen.findByRole('button', { name: 'Baixar resultados (CSV)' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Você não tem permissão para esta ação.');
  });
});
