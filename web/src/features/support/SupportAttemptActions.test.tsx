// Issue 27 on the attempt page: retry now and cancel with a reason, notes, permalinks.

import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FakeApi, FakeEventSource, renderAt, SUPPORT } from '../../testing/staff';
import { detailOf, IN_FLIGHT } from './fixtures';

let api: FakeApi;
const PATH = `/api/support/attempts/${IN_FLIGHT.id}`;
const REASON = 'Cliente ao telefone pediu para encerrar';
const NOTE = { version: 5, at: '2025-03-15T12:05:00Z', by: 'bia@exa.com.br', text: 'Cliente disse que o SMS não chegou.', erased: false };

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on(`GET ${PATH}`, { status: 200, body: detailOf(IN_FLIGHT, { notes: [NOTE] }) })
    .on(`POST ${PATH}/cancel`, { status: 200, body: { attempt: IN_FLIGHT.id, version: 6, events: [] } })
    .on(`POST ${PATH}/retry`, {
      status: 422,
      body: { message: 'Nenhuma etapa desta tentativa está aguardando uma nova tentativa agora.' },
    })
    .on(`POST ${PATH}/notes`, { status: 200, body: { attempt: IN_FLIGHT.id, version: 7, events: [] } });
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

describe('support acts on an attempt', () => {
  it('cancels only with a reason of 10 characters, sent with the CSRF token, and reads the attempt again', async () => {
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Encerrar tentativa' }));
    const dialog = screen.getByRole('dialog', { name: 'Encerrar a tentativa' });
    expect(dialog.textContent).toContain('Esta tentativa foi encerrada pelo nosso atendimento. Comece de novo quando quiser.');
    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: 'curto' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar tentativa' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Escreva o motivo com pelo menos 10 caracteres.');
    expect(api.calls(`POST ${PATH}/cancel`)).toHaveLength(0);

    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: REASON } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Encerrar tentativa' }));
    expect((await screen.findByText(/^Tentativa encerrada\./)).textContent).toContain('encerrada pelo atendimento');
    const [sent] = api.calls(`POST ${PATH}/cancel`);
    expect(sent.body).toEqual({ reason: REASON });
    expect(sent.headers.get('X-CSRF-Token')).toBe(SUPPORT.csrf_token);
    await waitFor(() => expect(api.calls(`GET ${PATH}`).length).toBeGreaterThan(1));
  });

  it("shows the server's refusal of a retry in the dialog", async () => {
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Tentar agora' }));
    const dialog = screen.getByRole('dialog', { name: 'Tentar a etapa agora' });
    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: 'Cliente aguardando o SMS' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Tentar agora' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe(
      'Nenhuma etapa desta tentativa está aguardando uma nova tentativa agora.',
    );
  });

  it('lists the notes with author, time and link, and adds one', async () => {
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}`);
    const notes = await screen.findByRole('region', { name: 'Notas' });
    expect(within(notes).getByText(NOTE.text)).toBeTruthy();
    expect(within(notes).getByText('bia@exa.com.br')).toBeTruthy();
    expect(within(notes).getByRole('link', { name: /Link/ }).getAttribute('href')).toBe(
      `/suporte/tentativas/${IN_FLIGHT.id}?evento=5`,
    );
    fireEvent.change(within(notes).getByLabelText('Nova nota'), { target: { value: '  Retornar às 15h.  ' } });
    fireEvent.click(within(notes).getByRole('button', { name: 'Salvar nota' }));
    await waitFor(() => expect(api.calls(`POST ${PATH}/notes`)).toHaveLength(1));
    expect(api.calls(`POST ${PATH}/notes`)[0].body).toEqual({ text: 'Retornar às 15h.' });
    await waitFor(() => expect((within(notes).getByLabelText('Nova nota') as HTMLTextAreaElement).value).toBe(''));
  });

  it('opens a permalink on its event: highlighted, focused, and each event links to itself', async () => {
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}?evento=3`);
    const section = await screen.findByRole('region', { name: /Linha do tempo/ });
    const target = section.querySelector('#evento-3') as HTMLElement;
    expect(target.classList.contains('sp-event--target')).toBe(true);
    expect(target.getAttribute('aria-current')).toBe('location');
    await waitFor(() => expect(document.activeElement).toBe(target));
    expect(section.querySelectorAll('.sp-event--target')).toHaveLength(1);
    expect(within(section).getByRole('link', { name: 'link do evento, versão #4' }).getAttribute('href')).toBe(
      `/suporte/tentativas/${IN_FLIGHT.id}?evento=4`,
    );
    expect(screen.getByRole('button', { name: 'Copiar link da tentativa' })).toBeTruthy();
  });

  it('offers no action on a completed attempt', async () => {
    api.on(`GET ${PATH}`, { status: 200, body: detailOf({ ...IN_FLIGHT, outcome: { kind: 'completed' } }) });
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}`);
    await screen.findByRole('region', { name: 'Notas' });
    expect(screen.queryByRole('button', { name: 'Encerrar tentativa' })).toBeNull();
  });
});
