import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '../fixtures';

export const SANDBOX_URL = process.env.SANDBOX_URL ?? 'http://127.0.0.1:8090';
export const PAGE = '/cloud/positivo';

/** A mobile number no scenario uses, so parallel tests never share an SMS inbox. */
export function freshPhone(): { typed: string; msisdn: string; masked: string } {
  const digits = `11${97 + Math.floor(Math.random() * 3)}${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
  const typed = `(${digits.slice(0, 2)}) ${digits.slice(2, 7)}-${digits.slice(7)}`;
  return { typed, msisdn: `55${digits}`, masked: `(${digits.slice(0, 2)}) *****-${digits.slice(7)}` };
}

export function freshSerial(prefix = 'PW'): string {
  return `${prefix}${Date.now().toString(36).toUpperCase()}${Math.floor(Math.random() * 1e4)}`.slice(0, 21);
}

/** The SMS codes the sandbox "sent" to `msisdn`, newest first. */
export async function inbox(request: APIRequestContext, msisdn: string): Promise<string[]> {
  const response = await request.get(`${SANDBOX_URL}/sms?to=${msisdn}`);
  expect(response.ok()).toBe(true);
  const messages = (await response.json()) as Array<{ code: string }>;
  return messages.map((message) => message.code);
}

/** Waits for the `count`-th code sent to `msisdn` and returns the newest. */
export async function smsCode(request: APIRequestContext, msisdn: string, count = 1): Promise<string> {
  await expect.poll(async () => (await inbox(request, msisdn)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
  return (await inbox(request, msisdn))[0];
}

export async function fillForm1(page: Page, phone: string, serial: string): Promise<void> {
  const phoneField = page.getByLabel('Celular', { exact: true });
  await phoneField.click();
  await phoneField.pressSequentially(phone.replace(/\D/g, ''));
  await expect(phoneField).toHaveValue(phone);
  await page.getByLabel('Número de série', { exact: true }).fill(serial);
  await page.getByRole('button', { name: 'Continuar' }).click();
}

/** Form 1 sent and the code form shown; returns the code the sandbox sent. */
export async function reachCodeForm(page: Page, request: APIRequestContext, serial: string) {
  const phone = freshPhone();
  await page.goto(PAGE);
  await fillForm1(page, phone.typed, serial);
  await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(phone.masked)).toBeVisible();
  const code = await smsCode(request, phone.msisdn);
  return { phone, code };
}

export function banner(page: Page) {
  return page.getByRole('alert');
}

export function loader(page: Page) {
  return page.getByRole('status', { name: 'Processando sua ativação' });
}
