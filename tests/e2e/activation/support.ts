import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

// Shared by the activation browser tests. They need the orchestrator (BASE_URL) and its
// sandbox (SANDBOX_URL): codes are read from the sandbox's SMS inbox as a visitor would read
// their phone. The sandbox clock is shared: only expired.spec.ts moves it.

export const SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://127.0.0.1:8090';

/** A fresh mobile number per test, outside the sandbox's scenario numbers (DDD 21 to 89). */
/** Brazil's area codes in use from 21 on (11 to 19 hold the sandbox's scenario numbers). */
const FRESH_DDDS = ['21', '22', '24', '27', '28', '31', '32', '33', '34', '35', '37', '38', '41', '42', '43', '44', '45', '46', '47', '48', '49', '51', '53', '54', '61', '62', '63', '64', '65', '66', '67', '68', '69', '71', '73', '74', '75', '77', '79', '81', '82', '83', '84', '85', '86', '87', '88', '89'];

export function freshPhone(): { typed: string; msisdn: string; masked: string } {
  // Area codes in use only (issue 29: the flows refuse the others).
  const ddd = FRESH_DDDS[Math.floor(Math.random() * FRESH_DDDS.length)];
  const rest = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  const national = `${ddd}9${rest}`;
  return {
    typed: national,
    msisdn: `55${national}`,
    masked: `(${ddd}) 9${rest.slice(0, 4)}-${rest.slice(4)}`,
  };
}

export function uniqueLicence(prefix = 'EXA'): string {
  return `${prefix}-${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`.slice(0, 21);
}

export const sms = async (request: APIRequestContext, msisdn: string): Promise<{ code: string }[]> => {
  const response = await request.get(`${SANDBOX_URL}/sms?to=${msisdn}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { code: string }[];
};

/** The newest code sent to `msisdn`, once at least `count` messages arrived. */
export async function codeFor(request: APIRequestContext, msisdn: string, count = 1): Promise<string> {
  let messages: { code: string }[] = [];
  await expect
    .poll(async () => {
      messages = await sms(request, msisdn);
      return messages.length;
    })
    .toBeGreaterThanOrEqual(count);
  return messages[0].code;
}

export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export const fields = (page: Page) => ({
  phone: page.getByLabel('Número do celular'),
  cpfCnpj: page.getByLabel('CPF/CNPJ'),
  licence: page.getByLabel('Código de licença'),
  email: page.getByLabel('E-mail'),
  pincode: page.getByLabel('Código recebido por SMS'),
  terms: page.getByRole('checkbox', { name: 'Li e concordo com os Termos de uso e Privacidade' }),
  activate: page.getByRole('button', { name: 'Ativar' }),
  banner: page.getByRole('alert'),
});

/** Types into a masked field key by key, as a visitor would. */
export async function typeInto(locator: ReturnType<Page['getByLabel']>, text: string): Promise<void> {
  await locator.click();
  await locator.pressSequentially(text);
}

/** Empties a field as a visitor would: select all, delete. */
export async function clear(locator: ReturnType<Page['getByLabel']>): Promise<void> {
  await locator.click();
  await locator.press('ControlOrMeta+a');
  await locator.press('Backspace');
  await expect(locator).toHaveValue('');
}

/** Fills the code panel with `code`, accepts the terms and presses 'Ativar'. */
export async function activate(page: Page, code: string): Promise<void> {
  const f = fields(page);
  await f.pincode.fill(code);
  await f.terms.check();
  await expect(f.activate).toBeEnabled();
  await f.activate.click();
}

/** The code panel is on screen, showing the phone the code went to. */
export async function expectCodePanel(page: Page, masked: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Digite o código que enviamos por SMS' })).toBeVisible();
  await expect(page.getByTestId('activation-phone-shown')).toHaveText(masked);
}

export async function expectStoreRedirect(page: Page): Promise<void> {
  // The ending first says the activation is done, then the spec's text.
  await expect(page.getByRole('heading', { name: 'Pronto! Seu EXA Segurança está ativado.' })).toBeVisible();
  await expect(page.getByText('Aguarde um instante enquanto te direcionamos ...')).toBeVisible();
  // A computer goes to /seguranca after 3 s.
  await page.waitForURL('**/seguranca', { timeout: 10_000 });
}

export async function expectNoindex(page: Page): Promise<void> {
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
}
