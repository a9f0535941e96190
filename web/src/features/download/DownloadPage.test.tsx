// The page against a fake attempt API: fetch answers commands, a fake EventSource pushes the
// runner's later events. What is checked is what a visitor sees.

import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import DownloadPage from './DownloadPage';
import { GENERIC_FAILURE, INVALID_CODE, INVALID_PHONE, REMOVAL_FAILURE } from './texts';

interface WireEvent {
  type: string;
  data: Record<string, unknown>;
}

const ID = 'download-00000000-0000-4000-8000-000000000001';

class FakeEventSource {
  static last: FakeEventSource | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  close() {}
}

let version = 0;
let sent: Record<string, unknown>[] = [];
/** The events the next command reply carries, decided by the test. */
let replyTo: (command: Record<string, unknown>) => WireEvent[] | { status: number; body: unknown };

function wire(events: WireEvent[]) {
  return events.map((e) => ({ ...e, version: ++version, at: new Date().toISOString() }));
}

function reply(events: WireEvent[]) {
  return { id: ID, flow: 'download', version: version + events.length, events: wire(events), view: {} };
}

/** The runner finished a step: the stream pushes its events. */
function push(...events: WireEvent[]) {
  act(() => {
    FakeEventSource.last?.onmessage?.({ data: JSON.stringify(reply(events)) });
  });
}

function ev(type: string, data: Record<string, unknown> = {}): WireEvent {
  return { type, data };
}

beforeEach(() => {
  version = 0;
  sent = [];
  replyTo = () => [];
  vi.stubGlobal('EventSource', FakeEventSource);
  // jsdom has no scrolling; the site shell scrolls to the top on every page.
  vi.stubGlobal('scrollTo', () => {});
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      if (url === '/api/attempts') {
        sent.push(body.command as Record<string, unknown>);
        return new Response(JSON.stringify(reply([ev('download.started', { os: 'win_pc', browser: 'Chrome' })])), {
          status: 201,
        });
      }
      sent.push(body);
      const answer = replyTo(body);
      if (Array.isArray(answer)) return new Response(JSON.stringify(reply(answer)), { status: 200 });
      return new Response(JSON.stringify(answer.body), { status: answer.status });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Renders the page; `ready` waits until the attempt has started (the overlay is gone). */
async function renderReady(path: string) {
  renderAt(path);
  await screen.findByLabelText('Número de celular');
  await waitFor(() => expect(screen.queryByRole('status', { name: 'Carregando…' })).toBeNull());
}

function renderAt(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/av-desktop/download/:os" element={<DownloadPage />} />
        <Route path="/seguranca" element={<h1>Página de segurança</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

async function typePhone(value: string) {
  const input = await screen.findByLabelText('Número de celular');
  fireEvent.input(input, { target: { value } });
  return input;
}

async function toCodePanel() {
  await renderReady('/av-desktop/download/win_pc');
  replyTo = () => [ev('phone.submitted', { phone: null, masked: '(11) *****-0001' })];
  await typePhone('11910000001');
  fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
  await screen.findByRole('status', { name: 'Carregando…' });
  push(ev('code.sent'));
  await screen.findByLabelText('Código de verificação');
}

describe('DownloadPage', () => {
  it('sends an unknown os to /seguranca', async () => {
    renderAt('/av-desktop/download/linux');
    expect(await screen.findByRole('heading', { name: 'Página de segurança' })).toBeTruthy();
  });

  it('starts the attempt with the os and the detected browser, and shows step 1', async () => {
    renderAt('/av-desktop/download/mac');
    expect(await screen.findByRole('heading', { level: 1, name: 'Antivírus' })).toBeTruthy();
    await screen.findByLabelText('Número de celular');
    expect(sent[0]).toEqual({ type: 'start', os: 'mac', browser: expect.any(String) });
    const steps = screen.getByRole('list', { name: 'Etapas do download' });
    const items = within(steps).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('data-active'))).toEqual(['true', 'false', 'false']);
    expect(items[0]?.getAttribute('aria-current')).toBe('step');
  });

  it('keeps Continuar disabled until the phone matches, and explains a wrong number', async () => {
    renderAt('/av-desktop/download/win_pc');
    const button = await screen.findByRole('button', { name: 'Continuar' });
    expect(screen.getByText('Digite apenas números')).toBeTruthy();
    expect(screen.getByText('Usaremos este número para enviar um código de segurança por SMS.')).toBeTruthy();
    expect(screen.getByText('Se você tem um plano família, use o número do titular do plano.')).toBeTruthy();
    expect((button as HTMLButtonElement).disabled).toBe(true);

    const input = await typePhone('1191234');
    expect((input as HTMLInputElement).value).toBe('(11) 91234');
    expect(screen.queryByText(INVALID_PHONE)).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await typePhone('11812345678');
    expect(screen.getByText(INVALID_PHONE)).toBeTruthy();
    expect((button as HTMLButtonElement).disabled).toBe(true);

    await typePhone('11912345678');
    expect(screen.queryByText(INVALID_PHONE)).toBeNull();
    expect((button as HTMLButtonElement).disabled).toBe(false);
  });

  it('moves to the code with the countdown, and refuses short codes', async () => {
    await toCodePanel();
    expect(sent[1]).toEqual({ type: 'submit_phone', phone: '(11) 91000-0001' });
    expect(screen.getByText('Enviamos um código de 6 dígitos por SMS para (11) *****-0001.')).toBeTruthy();
    expect(screen.getByText('Reenviar código em 90 segundos')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reenviar código' })).toBeNull();

    const code = screen.getByLabelText('Código de verificação');
    const confirm = screen.getByRole('button', { name: 'Confirmar' }) as HTMLButtonElement;
    fireEvent.change(code, { target: { value: '123' } });
    fireEvent.blur(code);
    expect(screen.getByText(INVALID_CODE)).toBeTruthy();
    expect(confirm.disabled).toBe(true);
    fireEvent.change(code, { target: { value: '123456' } });
    expect(screen.queryByText(INVALID_CODE)).toBeNull();
    expect(confirm.disabled).toBe(false);
  });

  it('shows a rejected code until the visitor edits it', async () => {
    await toCodePanel();
    replyTo = () => [ev('code.submitted', { code: '000000' })];
    fireEvent.change(screen.getByLabelText('Código de verificação'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirmar' }));
    await screen.findByRole('status', { name: 'Carregando…' });
    push(ev('code.rejected', { reason: 'INVALID_CODE' }));
    expect(await screen.findByText(INVALID_CODE)).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Confirmar' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Código de verificação'), { target: { value: '00000' } });
    fireEvent.change(screen.getByLabelText('Código de verificação'), { target: { value: '000001' } });
    expect(screen.queryByText(INVALID_CODE)).toBeNull();
  });

  it('offers the resend link when the countdown ends', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await toCodePanel();
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByText('Reenviar código em 30 segundos')).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(30_500);
    });
    replyTo = () => [ev('code.resend_requested')];
    fireEvent.click(screen.getByRole('button', { name: 'Reenviar código' }));
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ type: 'resend_code' }));
  });

  it('lets the visitor choose among several partners', async () => {
    await toCodePanel();
    push(
      ev('code.submitted', { code: '123456' }),
      ev('code.confirmed'),
      ev('user.found'),
      ev('partners.listed', {
        partners: [
          { id: 'p1', name: 'Parceiro Um', logotype: '', has_subscription: true },
          { id: 'p2', name: 'Parceiro Dois', logotype: '', has_subscription: true },
        ],
      }),
    );
    const second = await screen.findByRole('radio', { name: /Parceiro Dois/ });
    const cont = screen.getByRole('button', { name: 'Continuar' }) as HTMLButtonElement;
    expect(cont.disabled).toBe(true);
    fireEvent.click(second);
    replyTo = () => [ev('partner.chosen', { partner_id: 'p2' })];
    fireEvent.click(cont);
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ type: 'choose_partner', partner_id: 'p2' }));
  });

  it('lists the devices holding the licences and confirms a disconnection', async () => {
    await toCodePanel();
    push(
      ev('code.submitted', { code: '123456' }),
      ev('code.confirmed'),
      ev('user.found'),
      ev('partners.listed', { partners: [{ id: 'p1', name: 'P', logotype: '', has_subscription: true }] }),
      ev('licences.full'),
      ev('devices.listed', {
        devices: [
          {
            id: 'd1', device_name: 'Notebook Sala', os_type: 'windows', os_version: '11', country: 'BR',
            first_login: Date.UTC(2023, 10, 14, 15) / 1000, last_login: Date.UTC(2025, 2, 5, 12) / 1000,
          },
          {
            id: 'd2', device_name: 'MacBook', os_type: 'macos', os_version: '14', country: 'BR',
            first_login: null, last_login: null,
          },
        ],
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Todas as suas licenças estão em uso' })).toBeTruthy();
    expect(screen.getByTestId('licence-counter').textContent).toBe('2/2');
    const card = screen.getAllByTestId('device-card')[0] as HTMLElement;
    expect(within(card).getByText('Notebook Sala')).toBeTruthy();
    expect(within(card).getByText('Windows 11')).toBeTruthy();
    expect(within(card).getByText('05 de março, 09:00')).toBeTruthy();
    expect(within(card).getByText('14 de nov de 2023')).toBeTruthy();

    fireEvent.click(within(card).getByRole('button', { name: 'Desconectar dispositivo' }));
    expect(screen.getByRole('alertdialog')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Não' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();

    fireEvent.click(within(card).getByRole('button', { name: 'Desconectar dispositivo' }));
    replyTo = () => [ev('device.removal_requested', { device_id: 'd1' })];
    fireEvent.click(screen.getByRole('button', { name: 'Sim' }));
    await vi.waitFor(() => expect(sent.at(-1)).toEqual({ type: 'remove_device', device_id: 'd1' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    push(ev('device.removal_failed', { device_id: 'd1', reason: 'HTTP 500' }));
    expect(await screen.findByText(REMOVAL_FAILURE)).toBeTruthy();
  });

  it('closes the snackbar after 4 seconds or with Fechar', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderReady('/av-desktop/download/win_pc');
    replyTo = () => [ev('phone.submitted', { phone: null, masked: '(11) *****-0001' })];
    await typePhone('11910000001');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await screen.findByRole('status', { name: 'Carregando…' });
    push(ev('code.send_failed', { reason: 'HTTP 500' }));
    expect(screen.getByText(GENERIC_FAILURE)).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(3_900);
    });
    expect(screen.getByText(GENERIC_FAILURE)).toBeTruthy();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText(GENERIC_FAILURE)).toBeNull();

    replyTo = () => [ev('phone.submitted', { phone: null, masked: '(11) *****-0001' })];
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    await screen.findByRole('status', { name: 'Carregando…' });
    push(ev('code.send_failed', { reason: 'HTTP 500' }));
    fireEvent.click(screen.getByRole('button', { name: 'Fechar' }));
    expect(screen.queryByText(GENERIC_FAILURE)).toBeNull();
  });

  it('shows the user-not-found panel and goes back to the phone with Tentar novamente', async () => {
    await toCodePanel();
    push(ev('code.submitted', { code: '123456' }), ev('code.confirmed'), ev('user.not_found'));
    expect(await screen.findByRole('heading', { name: 'Usuário não encontrado' })).toBeTruthy();
    expect(screen.getByText('Não encontramos seu número de telefone na nossa base de usuários.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Falar com o atendimento' }).getAttribute('href')).toBe('/contato');
    replyTo = () => [ev('attempt.restarted')];
    fireEvent.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByLabelText('Número de celular')).toBeTruthy();
    expect(sent.at(-1)).toEqual({ type: 'restart' });
  });

  it('shows a refusal with a field under that field', async () => {
    await renderReady('/av-desktop/download/win_pc');
    replyTo = () => ({ status: 422, body: { message: INVALID_PHONE, field: 'phone' } });
    await typePhone('11910000001');
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByText(INVALID_PHONE)).toBeTruthy();
  });
});
