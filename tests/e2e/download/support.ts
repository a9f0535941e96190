import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

// Shared by the desktop download's browser tests. They need the orchestrator (BASE_URL) and its
// sandbox (SANDBOX_URL); codes are read from the sandbox's SMS inbox as a visitor reads their
// phone. Each scenario phone of docs/sandbox.md is used by one test only, and the sandbox keeps
// state (a removed device stays removed), so run the suite against a freshly started sandbox.

export const SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://127.0.0.1:8090';

export const GENERIC_FAILURE = 'Algo não funcionou como esperado, procure nosso atendimento.';
export const REMOVAL_FAILURE = 'Não foi possível remover o dispositivo.';
export const INVALID_CODE = 'Código inválido. Verifique o número digitado.';

export interface Phone {
  typed: string;
  msisdn: string;
  masked: string;
}

/** A scenario phone of the sandbox table, given as its 11 digits. */
export function scenario(national: string): Phone {
  return { typed: national, msisdn: `55${national}`, masked: `(${national.slice(0, 2)}) *****-${national.slice(7)}` };
}

/** A fresh mobile number outside the scenario table: not in the user collection. */
/** Brazil's area codes in use from 21 on (11 to 19 hold the sandbox's scenario numbers). */
const FRESH_DDDS = ['21', '22', '24', '27', '28', '31', '32', '33', '34', '35', '37', '38', '41', '42', '43', '44', '45', '46', '47', '48', '49', '51', '53', '54', '61', '62', '63', '64', '65', '66', '67', '68', '69', '71', '73', '74', '75', '77', '79', '81', '82', '83', '84', '85', '86', '87', '88', '89'];

export function freshPhone(): Phone {
  // Area codes in use only (issue 29: the flows refuse the others).
  const ddd = FRESH_DDDS[Math.floor(Math.random() * FRESH_DDDS.length)];
  const rest = String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
  return scenario(`${ddd}9${rest}`);
}

async function inbox(request: APIRequestContext, msisdn: string): Promise<{ code: string }[]> {
  const response = await request.get(`${SANDBOX_URL}/sms?to=${msisdn}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { code: string }[];
}

/** How many codes `msisdn` received so far (a later test run may reuse a phone). */
export async function inboxSize(request: APIRequestContext, msisdn: string): Promise<number> {
  return (await inbox(request, msisdn)).length;
}

/** The newest code, once more than `before` messages arrived. */
export async function newCode(request: APIRequestContext, msisdn: string, before: number): Promise<string> {
  let messages: { code: string }[] = [];
  await expect
    .poll(async () => {
      messages = await inbox(request, msisdn);
      return messages.length;
    })
    .toBeGreaterThan(before);
  return messages[0]?.code ?? '';
}

export function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export const ui = (page: Page) => ({
  phone: page.getByLabel('Número de celular'),
  code: page.getByLabel('Código de verificação'),
  continue: page.getByRole('button', { name: 'Continuar' }),
  confirm: page.getByRole('button', { name: 'Confirmar' }),
  steps: page.getByRole('list', { name: 'Etapas do download' }).getByRole('listitem'),
  snackbar: page.locator('.dl-snackbar'),
  overlay: page.getByRole('status', { name: 'Carregando…' }),
});

/** Highlighted steps of the indicator, as 'true'/'false' per step. */
export async function expectSteps(page: Page, highlighted: 1 | 2 | 3): Promise<void> {
  const expected = [1, 2, 3].map((step) => (step <= highlighted ? 'true' : 'false'));
  for (const [index, value] of expected.entries()) {
    await expect(ui(page).steps.nth(index)).toHaveAttribute('data-active', value);
  }
}

/** Opens the page, types the phone key by key and continues: the code panel shows. */
export async function toCodePanel(page: Page, request: APIRequestContext, phone: Phone, os = 'win_pc'): Promise<number> {
  const f = ui(page);
  await page.goto(`/av-desktop/download/${os}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Antivírus' })).toBeVisible();
  await expectSteps(page, 1);
  const before = await inboxSize(request, phone.msisdn);
  await f.phone.click();
  await f.phone.pressSequentially(phone.typed);
  await expect(f.continue).toBeEnabled();
  await f.continue.click();
  await expect(f.code).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(`Enviamos um código de 6 dígitos por SMS para ${phone.masked}.`)).toBeVisible();
  await expectSteps(page, 2);
  return before;
}

/** Types the SMS code the sandbox sent and confirms it. */
export async function confirmCode(page: Page, request: APIRequestContext, phone: Phone, before: number): Promise<void> {
  const f = ui(page);
  const code = await newCode(request, phone.msisdn, before);
  await f.code.fill(code);
  await expect(f.confirm).toBeEnabled();
  await f.confirm.click();
}
