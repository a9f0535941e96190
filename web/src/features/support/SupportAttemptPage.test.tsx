import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN, FakeApi, FakeEventSource, renderAt, SUPPORT } from '../../testing/staff';
import { detailOf, IN_FLIGHT, REFUSED } from './fixtures';

let api: FakeApi;
const PATH = `/api/support/attempts/${REFUSED.id}`;

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
  api = new FakeApi()
    .on('GET /api/staff/session', { status: 200, body: SUPPORT })
    .on(`GET ${PATH}`, { status: 200, body: detailOf(REFUSED) });
  api.install();
});
afterEach(() => vi.unstubAllGlobals());

const timeline = async () => screen.findByRole('region', { name: /Linha do tempo/ });

describe('/suporte/tentativas/:id', () => {
  it('shows the summary and each event with what the visitor saw after it', async () => {
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    const section = await timeline();
    expect(screen.getByRole('heading', { level: 1, name: 'Tentativa de 14/03/2025, 10:22:05' })).toBeTruthy();
    expect(screen.getByText(REFUSED.id)).toBeTruthy();

    const events = section.querySelectorAll('li.sp-event');
    expect(events).toHaveLength(4);
    for (const event of events) expect(event.textContent).toContain('O que o visitante viu');
    const rejected = events[3] as HTMLElement;
    expect(within(rejected).getByText('10:25:17')).toBeTruthy();
    expect(within(rejected).getByText('executor')).toBeTruthy();
    expect(within(rejected).getByText('code.rejected')).toBeTruthy();
    expect(within(rejected).getByText('HTTP 403')).toBeTruthy();
    expect(within(rejected).getByText('code_validation')).toBeTruthy();
    expect(within(rejected).getByText(/Digitar o código/)).toBeTruthy();
    expect(within(rejected).getByText('“Código expirado. Solicite um novo código.”')).toBeTruthy();
    expect(within(events[0] as HTMLElement).getByText('visitante')).toBeTruthy();

    // Grouped by step: send_code and validate_code have their headings, in Portuguese with the machine name.
    expect(within(section).getByRole('heading', { level: 3, name: /Etapa Enviar o código por SMS send_code/ })).toBeTruthy();
    expect(within(section).getByRole('heading', { level: 3, name: /Etapa Validar o código validate_code/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Baixar histórico (JSON)' }).getAttribute('href')).toBe(`${PATH}/history`);
    expect(screen.getByRole('region', { name: 'Acessos da equipe' }).textContent).toContain('bia@exa.com.br abriu a tentativa');
  });

  it('shows the events data as JSON in the full view', async () => {
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    const section = await timeline();
    expect(section.querySelector('pre')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Completo' }));
    await waitFor(() => expect(section.querySelectorAll('pre')).toHaveLength(4));
    // The URL change re-renders the page; wait for the toggle to be back rather than race it.
    expect((await screen.findByRole('button', { name: 'Completo' })).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByTestId('location').textContent).toBe(`/suporte/tentativas/${REFUSED.id}?vista=completa`);
    expect(within(section).getByLabelText('Dados do evento code.rejected').textContent).toContain('"reason": "expired"');
  });

  it('reveals a field only with a reason of 10 characters, sending the CSRF token', async () => {
    api.on(`POST ${PATH}/reveal`, { status: 200, body: { field: 'phone', value: '(11) 91000-0001' } });
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    const fields = await screen.findByRole('region', { name: 'Dados pessoais' });
    expect(within(fields).getByText('(11) *****-0001')).toBeTruthy();
    fireEvent.click(within(fields).getByRole('button', { name: 'Revelar Telefone' }));

    const dialog = screen.getByRole('dialog', { name: 'Revelar Telefone' });
    const reason = within(dialog).getByLabelText('Motivo');
    expect(document.activeElement).toBe(reason);
    fireEvent.change(reason, { target: { value: 'conferir' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revelar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Escreva o motivo com pelo menos 10 caracteres.');
    expect(api.calls(`POST ${PATH}/reveal`)).toHaveLength(0);

    fireEvent.change(reason, { target: { value: 'Cliente ao telefone pediu conferência' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Revelar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [reveal] = api.calls(`POST ${PATH}/reveal`);
    expect(reveal.headers.get('X-CSRF-Token')).toBe(SUPPORT.csrf_token);
    expect(reveal.body).toEqual({ field: 'phone', reason: 'Cliente ao telefone pediu conferência' });
    expect(within(fields).getByText('(11) 91000-0001')).toBeTruthy();
    expect(within(fields).queryByRole('button', { name: 'Revelar Telefone' })).toBeNull();
    // The detail is read again so the reveal shows in the staff trail.
    await waitFor(() => expect(api.calls(`GET ${PATH}`)).toHaveLength(2));
  });

  it('closes the reveal dialog with Escape and gives the focus back', async () => {
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    const button = await screen.findByRole('button', { name: 'Revelar Telefone' });
    button.focus();
    fireEvent.click(button);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
  });

  it('follows an attempt in flight and reads it again on "changed"', async () => {
    const path = `/api/support/attempts/${IN_FLIGHT.id}`;
    const first = detailOf(IN_FLIGHT);
    first.timeline = first.timeline.slice(0, 2);
    api.on(`GET ${path}`, { status: 200, body: first });
    renderAt(`/suporte/tentativas/${IN_FLIGHT.id}`);
    const section = await timeline();
    expect(section.querySelectorAll('li.sp-event')).toHaveLength(2);
    expect(screen.getByText(/esta página se atualiza sozinha/)).toBeTruthy();
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    const source = FakeEventSource.all[0];
    expect(source.url).toBe(`${path}/stream`);

    api.on(`GET ${path}`, { status: 200, body: detailOf(IN_FLIGHT, { outcome: { kind: 'completed' } }) });
    act(() => source.emit('changed', { version: 4 }));
    await waitFor(() => expect(section.querySelectorAll('li.sp-event')).toHaveLength(4));
    expect(screen.getAllByText('Concluída').length).toBeGreaterThan(0);
    // Finished: no more live updates.
    await waitFor(() => expect(source.closed).toBe(true));
    expect(screen.queryByText(/esta página se atualiza sozinha/)).toBeNull();
  });

  it('opens no stream for a finished attempt', async () => {
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    await timeline();
    expect(FakeEventSource.all).toHaveLength(0);
  });

  it('hides LGPD erasure from a support agent', async () => {
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    await timeline();
    expect(screen.queryByRole('button', { name: 'Apagar dados da pessoa (LGPD)' })).toBeNull();
  });

  it('erases the person behind the attempt, then reads it again', async () => {
    api
      .on('GET /api/staff/session', { status: 200, body: ADMIN })
      .on('POST /api/support/erase', {
        status: 200,
        body: {
          subjects: 2,
          attempts: 3,
          secrets: 1,
          left: [{ kind: 'cpf_cnpj', why: 'not_proved', attempts: [REFUSED.id] }],
        },
      });
    renderAt(`/suporte/tentativas/${REFUSED.id}`);
    fireEvent.click(await screen.findByRole('button', { name: 'Apagar dados da pessoa (LGPD)' }));
    const dialog = screen.getByRole('dialog', { name: 'Apagar dados da pessoa (LGPD)' });
    const confirm = within(dialog).getByRole('button', { name: 'Apagar dados' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Digite APAGAR para confirmar'), { target: { value: 'apagar' } });
    expect(confirm.disabled).toBe(true);
    api.on(`GET ${PATH}`, {
      status: 200,
      body: detailOf(REFUSED, { fields: { phone: 'dado apagado (LGPD)', licence: 'dado apagado (LGPD)' } }),
    });
    fireEvent.change(within(dialog).getByLabelText('Digite APAGAR para confirmar'), { target: { value: 'APAGAR' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [erase] = api.calls('POST /api/support/erase');
    expect(erase.body).toEqual({ attempt: REFUSED.id, confirm: true });
    expect(erase.headers.get('X-CSRF-Token')).toBe(ADMIN.csrf_token);
    expect(await screen.findByText(/Dados apagados: 2 pessoas ou identificadores, 3 tentativas e 1 token/)).toBeTruthy();
    // Issue 26: what the erasure met and did not erase is listed for the admin.
    expect(
      screen.getByText('CPF/CNPJ: digitado sem confirmação por SMS desta pessoa; pode ser de outra (1 tentativa).'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.getAllByText('dado apagado (LGPD)')).toHaveLength(2));
    expect(screen.queryByRole('button', { name: /^Revelar/ })).toBeNull();
  });

  it('says when the attempt does not exist', async () => {
    api.on('GET /api/support/attempts/nada', { status: 404, body: { message: 'Tentativa não encontrada.' } });
    renderAt('/suporte/tentativas/nada');
    expect(await screen.findByRole('heading', { level: 1, name: 'Tentativa não encontrada' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Tentativa não encontrada.');
  });
});
