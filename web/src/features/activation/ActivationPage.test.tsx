// The page against a fake attempt API: fetch answers commands, a fake EventSource pushes the
// runner's later events. What is checked is what a visitor sees and what the server is server.sent.

import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useEffect } from 'react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import type { NavigateFunction } from 'react-router';
import { ev, FakeEventSource, fakeAttemptServer } from '../../lib/attempts/fakeAttemptServer';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ActivationPage, { AGILITY_PLAN_KEY } from './ActivationPage';
import {
  ACTIVATED_HEADING,
  DEFAULT_HEADING,
  INVALID_PHONE,
  PHONE_HINT,
  PRODUCT_LINES,
  PRODUCT_LIST_HEADING,
  REDIRECT_TEXT,
} from './texts';

const ID = 'activation-00000000-0000-4000-8000-000000000001';
const LOADER = 'Aguarde, estamos processando';

const server = fakeAttemptServer('activation', ID);
const { push } = server;

beforeEach(() => {
  server.install();
  window.localStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

let navigate: NavigateFunction = () => {};

function Navigator() {
  const routerNavigate = useNavigate();
  useEffect(() => {
    navigate = routerNavigate;
  }, [routerNavigate]);
  return null;
}

function renderPage(entry: string) {
  return render(
    <MemoryRouter initialEntries={[entry]}>
      <Navigator />
      <Routes>
        <Route path="/seguranca/ativar" element={<ActivationPage variant="standard" />} />
        <Route path="/seguranca/ativarsumicity" element={<ActivationPage variant="partner_portal" />} />
        <Route path="/seguranca/ativaragility" element={<ActivationPage variant="telecom" />} />
        <Route path="/seguranca" element={<p>página de segurança</p>} />
      </Routes>
    </MemoryRouter>,
  );
}

const loader = () => screen.queryByRole('status', { name: LOADER });

describe('activation page', () => {
  it('starts the attempt, sends phone and licence, takes the code and leaves for /seguranca', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [ev('attempt.started', { variant: 'standard' })];
      if (command.type === 'submit_phone') return [ev('phone.submitted', { phone_display: '(11) *****-5678' })];
      if (command.type === 'submit_code') return [ev('code.submitted')];
      return [];
    };
    renderPage('/seguranca/ativar');
    expect(loader()).toBeTruthy();
    await screen.findByRole('heading', { name: DEFAULT_HEADING });
    await waitFor(() => expect(loader()).toBeNull());
    expect(server.sent).toEqual([{ type: 'start', variant: 'standard', licenca: null, code: null, state: null, return_url: null }]);

    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('Código de licença'), { target: { value: 'LIC-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    await waitFor(() => expect(server.sent[1]).toEqual({ type: 'submit_phone', phone: '(11) 91234-5678', licence: 'LIC-1' }));
    await waitFor(() => expect(FakeEventSource.last?.url).toBe(`/api/attempts/${ID}/stream`));
    expect(loader()).toBeTruthy();

    push(ev('code.sent', { resend: false }));
    await screen.findByRole('heading', { name: 'Digite o código que enviamos por SMS' });
    expect(screen.getByTestId('activation-phone-shown').textContent).toBe('(11) 91234-5678');
    expect(loader()).toBeNull();
    const activate = screen.getByRole('button', { name: 'Ativar' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('Código recebido por SMS'), { target: { value: '12a3456' } });
    expect((screen.getByLabelText('Código recebido por SMS') as HTMLInputElement).value).toBe('123456');
    expect(activate.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Li e concordo com os Termos de uso e Privacidade' }));
    expect(activate.disabled).toBe(false);
    fireEvent.click(activate);
    await waitFor(() => expect(server.sent[2]).toEqual({ type: 'submit_code', pincode: '123456', terms_accepted: true }));

    push(ev('code.validated'), ev('subscription.created'));
    expect(screen.getByText(REDIRECT_TEXT)).toBeTruthy();
    await waitFor(() => expect(server.sent[3]).toEqual({ type: 'record_store_redirect', platform: 'desktop' }));
    await waitFor(() => expect(screen.getByText('página de segurança')).toBeTruthy(), { timeout: 5000 });
  }, 15_000);

  it('shows the local check in the banner without calling the server, and the banner closes', async () => {
    server.replyTo = () => [ev('attempt.started', { variant: 'standard' })];
    renderPage('/seguranca/ativar');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toBe(INVALID_PHONE);
    expect(screen.getByLabelText('Número do celular').getAttribute('aria-invalid')).toBe('true');
    expect(server.sent).toHaveLength(1);
    fireEvent.click(within(banner).getByRole('button', { name: 'Fechar aviso de erro' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's refusal on its field", async () => {
    server.replyTo = (command) =>
      command.type === 'start'
        ? [ev('attempt.started', { variant: 'standard' })]
        : { status: 422, body: { message: 'Licença recusada.', field: 'licence' } };
    renderPage('/seguranca/ativar');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('Código de licença'), { target: { value: 'LIC-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Licença recusada.');
    expect(screen.getByLabelText('Código de licença').getAttribute('aria-invalid')).toBe('true');
    expect(loader()).toBeNull();
  });

  it("locks the licence the link brings, and a new query string starts a new attempt", async () => {
    server.replyTo = (command) => [
      ev('attempt.started', { variant: 'partner_portal', licence: command.licenca, licence_locked: true }),
    ];
    renderPage('/seguranca/ativarsumicity?licenca=SUMI-1');
    const licence = (await screen.findByDisplayValue('SUMI-1')) as HTMLInputElement;
    expect(licence.disabled).toBe(true);
    expect(server.sent).toEqual([{ type: 'start', variant: 'partner_portal', licenca: 'SUMI-1', code: null, state: null, return_url: null }]);
    await act(async () => navigate('/seguranca/ativarsumicity?licenca=SUMI-2'));
    await screen.findByDisplayValue('SUMI-2');
    expect(server.sent.map((command) => command.licenca)).toEqual(['SUMI-1', 'SUMI-2']);
  });

  it('keeps the telecom plan and lists the products the plan grants', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [ev('attempt.started', { variant: 'telecom' })];
      if (command.type === 'submit_email') return [ev('email.submitted', { phone_display: '(11) *****-5678' })];
      return [];
    };
    renderPage('/seguranca/ativaragility');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    await waitFor(() => expect(server.sent[1]).toEqual({ type: 'submit_email', phone: '(11) 91234-5678', email: 'ana@example.com' }));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    push(ev('partner.logged_in'), ev('partner.plan_found', { plan_id: 'plan-7' }));
    await waitFor(() => expect(window.localStorage.getItem(AGILITY_PLAN_KEY)).toBe('plan-7'));
    push(ev('code.sent'));
    await screen.findByRole('heading', { name: 'Digite o código que enviamos por SMS' });
    push(ev('code.validated'), ev('packs.fetched', { products: { seguranca: true, cloud: true, gestao: false } }));
    await screen.findByRole('heading', { name: PRODUCT_LIST_HEADING });
    const cloud = screen.getByRole('link', { name: 'Baixar EXA Cloud' });
    expect(screen.getByRole('link', { name: 'Baixar EXA Segurança' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Baixar Gestão Digital' })).toBeNull();
    expect(cloud.getAttribute('href')).toBe('/cloud');
    expect(cloud.getAttribute('target')).toBe('_blank');
    fireEvent.click(cloud);
    await waitFor(() => expect(server.sent.at(-1)).toEqual({ type: 'choose_product', product: 'cloud', platform: 'desktop' }));
  });
});

describe('the template around the panels', () => {
  it('says why each field is asked, shows the partner logo file and a slim footer opening in new tabs', async () => {
    server.replyTo = () => [ev('attempt.started', { variant: 'partner_portal', licence: 'SUMI-1', licence_locked: true })];
    renderPage('/seguranca/ativarsumicity?licenca=SUMI-1');
    await waitFor(() => expect(loader()).toBeNull());
    const phone = screen.getByLabelText('Número do celular');
    expect(document.getElementById(phone.getAttribute('aria-describedby') ?? '')?.textContent).toBe(PHONE_HINT);
    const licence = screen.getByLabelText('Código de licença');
    expect(document.getElementById(licence.getAttribute('aria-describedby') ?? '')?.textContent).toMatch(/link do seu provedor/);
    const logo = screen.getByRole('img', { name: 'Parceiro Sumicity' });
    expect(logo.getAttribute('src')).toBe('/img/partners/sumicity.svg');
    const footer = screen.getByRole('contentinfo');
    const links = within(footer).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href'), link.getAttribute('target')])).toEqual([
      ['Privacidade', '/assets/politica-de-privacidade.htm', '_blank'],
      ['Termos de uso', '/assets/termos-de-uso.htm', '_blank'],
      ['Ajuda', '/contato', '_blank'],
    ]);
    expect(footer.textContent).toMatch(/CNPJ/);
  });

  it('first says the activation is done, then the redirect text', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [ev('attempt.started', { variant: 'standard' })];
      if (command.type === 'submit_phone') return [ev('phone.submitted', { phone_display: '(11) *****-5678' })];
      return [];
    };
    renderPage('/seguranca/ativar');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('Código de licença'), { target: { value: 'LIC-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    push(ev('code.sent', { resend: false }), ev('code.validated'), ev('subscription.created'));
    const done = await screen.findByRole('heading', { name: ACTIVATED_HEADING });
    const redirect = screen.getByText(REDIRECT_TEXT);
    expect(done.compareDocumentPosition(redirect) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('lists each product with its icon and one line', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [ev('attempt.started', { variant: 'telecom' })];
      if (command.type === 'submit_email') return [ev('email.submitted', { phone_display: '(11) *****-5678' })];
      return [];
    };
    renderPage('/seguranca/ativaragility');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ana@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    push(ev('code.sent'), ev('code.validated'), ev('packs.fetched', { products: { seguranca: true, cloud: true, gestao: true } }));
    await screen.findByRole('heading', { name: PRODUCT_LIST_HEADING });
    const items = screen.getAllByRole('listitem').filter((item) => item.classList.contains('activation-product'));
    expect(items).toHaveLength(3);
    for (const [index, product] of (['seguranca', 'cloud', 'gestao'] as const).entries()) {
      expect(items[index].querySelector('img')?.getAttribute('src')).toBe(`/img/icon-${product}.svg`);
      expect(items[index].textContent).toContain(PRODUCT_LINES[product]);
    }
  });

  it('"Alterar número" on the code step starts a new attempt at the phone field, keeping phone and licence', async () => {
    server.replyTo = (command) => {
      if (command.type === 'start') return [ev('attempt.started', { variant: 'standard' })];
      if (command.type === 'submit_phone') return [ev('phone.submitted', { phone_display: '(11) *****-5678' })];
      return [];
    };
    renderPage('/seguranca/ativar');
    await waitFor(() => expect(loader()).toBeNull());
    fireEvent.input(screen.getByLabelText('Número do celular'), { target: { value: '11912345678' } });
    fireEvent.change(screen.getByLabelText('Código de licença'), { target: { value: 'LIC-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Validar' }));
    await waitFor(() => expect(FakeEventSource.last).not.toBeNull());
    push(ev('code.sent', { resend: false }));
    fireEvent.click(await screen.findByRole('button', { name: 'Alterar número' }));
    await screen.findByRole('heading', { name: DEFAULT_HEADING });
    // Issue 29: the visitor corrects the number instead of typing everything again.
    expect((screen.getByLabelText('Número do celular') as HTMLInputElement).value).toBe('(11) 91234-5678');
    expect((screen.getByLabelText('Código de licença') as HTMLInputElement).value).toBe('LIC-1');
    await waitFor(() => expect(server.sent.filter((command) => command.type === 'start')).toHaveLength(2));
  });
});
