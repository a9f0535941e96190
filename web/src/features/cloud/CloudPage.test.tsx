// The page against a fake attempt API: fetch answers commands, a fake EventSource pushes the
// runner's later events. What is checked is what a visitor sees.

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ev, FakeEventSource, fakeAttemptServer } from '../../lib/attempts/fakeAttemptServer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CloudPage from './CloudPage';
import { CLOUD_FAQ, FAQ_VISIBLE } from './faq';
import { MESSAGES } from './texts';

const ID = 'cloud-00000000-0000-4000-8000-000000000001';

const server = fakeAttemptServer('cloud', ID);
const { push } = server;
const submitted = ev('details.submitted', { phone: null, phone_masked: '(11) *****-5678', serial: 'PSN-0001' });

beforeEach(() => {
  server.install();
  // jsdom has no scrolling; SiteShell scrolls to the top on arrival.
  vi.stubGlobal('scrollTo', () => {});
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/cloud/positivo']}>
      <Routes>
        <Route path="/cloud/positivo" element={<CloudPage />} />
        <Route path="/cliente/hero" element={<p>página do cliente</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

async function fillForm1(phone = '11912345678', serial = 'PSN-0001') {
  fireEvent.input(screen.getByLabelText('Celular'), { target: { value: phone } });
  fireEvent.change(screen.getByLabelText('Número de série'), { target: { value: serial } });
  fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
}

describe('/cloud/positivo', () => {
  it('has its title, a noindex robots tag and form 1 with its placeholders', () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Ativar número de série' })).toBeTruthy();
    const robots = [...document.querySelectorAll('meta[name="robots"]')].map((m) => m.getAttribute('content'));
    expect(robots.length).toBeGreaterThan(0);
    expect(robots.every((content) => content?.includes('noindex'))).toBe(true);
    expect(screen.getByLabelText('Celular').getAttribute('placeholder')).toBe('(xx) xxxxx-xxxx');
    const serial = screen.getByLabelText('Número de série');
    // No maxlength: an over-long paste is kept whole and refused with a message (issue 29), never cut.
    expect(serial.hasAttribute('maxlength')).toBe(false);
    expect(serial.getAttribute('placeholder')).toBe('Ex.: PS2401BR00012345');
  });

  it('shows the validation message in the red banner without calling the server', () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toBe(MESSAGES.phoneRequired);
    // The three flows' one banner (components/flow/ErrorBanner), red as the spec asks of this one.
    expect(banner.className).toBe('flow-error');
    expect(server.sent).toEqual([]);
    fireEvent.click(within(banner).getByRole('button', { name: 'Fechar aviso de erro' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('goes from form 1 to the code form, and from a valid code to the success modal and /cliente/hero', async () => {
    server.replyTo = (command) => (command.type === 'start' ? [submitted] : [ev('code.submitted', { pincode: '123456' })]);
    renderPage();
    await fillForm1('(11) 91234-5678');
    await waitFor(() => expect(server.sent).toEqual([{ type: 'start', phone: '(11) 91234-5678', serial: 'PSN-0001' }]));
    await waitFor(() => expect(screen.getByRole('status', { name: 'Processando sua ativação' })).toBeTruthy());
    await waitFor(() => expect(FakeEventSource.last?.url).toBe(`/api/attempts/${ID}/stream`));
    push(ev('phone.checked'), ev('code.sent', { transaction_id: 'tx' }));
    expect(screen.getByText('(11) *****-5678')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Processando sua ativação' })).toBeNull();
    fireEvent.change(screen.getByLabelText('Código recebido'), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ativar' }));
    await waitFor(() => expect(server.sent[1]).toEqual({ type: 'submit_code', code: '123456' }));
    push(ev('code.validated'), ev('serial.registered'));
    push(ev('custom_token.obtained'), ev('account.signed_in'), ev('cloud.activated'));
    expect(screen.getByRole('dialog', { name: 'Número de série ativado!' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('página do cliente')).toBeTruthy(), { timeout: 6000 });
  }, 15_000);

  it("shows the server's refusal of the code and stops the loader", async () => {
    server.replyTo = (command) =>
      command.type === 'start' ? [submitted, ev('phone.checked'), ev('code.sent', { transaction_id: 'tx' })] : [ev('code.submitted')];
    renderPage();
    await fillForm1();
    await screen.findByLabelText('Código recebido');
    fireEvent.change(screen.getByLabelText('Código recebido'), { target: { value: '000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Ativar' }));
    await waitFor(() => expect(server.sent).toHaveLength(2));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    push(ev('code.rejected', { message: 'Código inválido ou expirado.' }));
    expect(screen.getByRole('alert').textContent).toBe('Código inválido ou expirado.');
    expect(screen.queryByRole('status', { name: 'Processando sua ativação' })).toBeNull();
  });

  it('hides the resend link after a successful resend while the countdown runs, and goes back to form 1', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [submitted, ev('phone.checked'), ev('code.sent', { transaction_id: 'tx' })];
      if (command.type === 'resend') return [ev('code.resend_requested'), ev('code.resent', { transaction_id: 'tx2' })];
      return [ev('details.reopened')];
    };
    renderPage();
    await fillForm1();
    fireEvent.click(await screen.findByRole('button', { name: 'Reenviar código' }));
    await screen.findByText('Reenviando em 10 segundos...');
    expect(screen.queryByRole('button', { name: 'Reenviar código' })).toBeNull();
    await screen.findByText('Reenviando em 9 segundos...', undefined, { timeout: 1500 });
    fireEvent.click(screen.getByRole('button', { name: 'Voltar' }));
    await screen.findByRole('button', { name: 'Continuar' });
    expect(server.sent.map((c) => c.type)).toEqual(['start', 'resend', 'back']);
    // The form keeps what was typed.
    expect((screen.getByLabelText('Número de série') as HTMLInputElement).value).toBe('PSN-0001');
  });

  it('opens and closes the help panel with its mask, and the support button opens the chatbot', () => {
    const opened = vi.fn();
    window.addEventListener('exa:open-chatbot', opened);
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Onde encontro o número de série?' }));
    const panel = screen.getByRole('dialog', { name: 'Onde encontro o número de série?' });
    expect(within(panel).getByRole('img', { name: /número de série \(S\/N\)/ })).toBeTruthy();
    fireEvent.click(screen.getByTestId('help-mask'));
    expect(screen.queryByRole('dialog', { name: 'Onde encontro o número de série?' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Ver exemplo da etiqueta' }));
    fireEvent.click(screen.getByRole('button', { name: 'OBTER AJUDA DO SUPORTE' }));
    expect(screen.queryByRole('dialog', { name: 'Onde encontro o número de série?' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Precisa de ajuda?' }));
    expect(opened).toHaveBeenCalledTimes(2);
    window.removeEventListener('exa:open-chatbot', opened);
  });

  it("shows every FAQ question with 'Exibir todos' and fewer with 'Exibir menos'", () => {
    renderPage();
    const list = () => document.querySelectorAll('#cloud-faq-list > li').length;
    expect(list()).toBe(FAQ_VISIBLE);
    fireEvent.click(screen.getByRole('button', { name: 'Exibir todos' }));
    expect(list()).toBe(CLOUD_FAQ.length);
    fireEvent.click(screen.getByRole('button', { name: 'Exibir menos' }));
    expect(list()).toBe(FAQ_VISIBLE);
  });

  it('hides the phone tip after 9 s', () => {
    vi.useFakeTimers();
    renderPage();
    expect(screen.getByTestId('phone-tip')).toBeTruthy();
    act(() => vi.advanceTimersByTime(8999));
    expect(screen.getByTestId('phone-tip')).toBeTruthy();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('phone-tip')).toBeNull();
  });
});
