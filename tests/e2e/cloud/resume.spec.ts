// Issue 29: a reload, Back/Forward or a return from another site resumes the tab's cloud
// activation at the form the visitor left; an account already active is not resumed (the
// visitor went on to /cliente/hero, and coming back must not send them there again). At 375 px.

import { expect, test } from '../fixtures';
import { keptAttempt } from '../resume/support';
import { freshSerial, inbox, PAGE, reachCodeForm } from './helpers';

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

test('the code form survives a reload, Back/Forward and another site; the active account is not resumed', async ({
  page,
  request,
}) => {
  const codeField = page.getByLabel('Código recebido', { exact: true });
  const phoneField = page.getByLabel('Celular', { exact: true });
  await page.goto('/');
  const { phone, code } = await reachCodeForm(page, request, freshSerial());
  await expect.poll(() => keptAttempt(page, PAGE)).toMatch(/^cloud-/);
  const attempt = await keptAttempt(page, PAGE);
  const codeForm = async () => {
    await expect(codeField).toBeVisible();
    await expect(page.getByText(phone.masked)).toBeVisible();
    await expect(phoneField).toHaveCount(0);
    expect(await keptAttempt(page, PAGE)).toBe(attempt);
  };

  await page.reload();
  await codeForm();
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await codeForm();
  await page.goto('https://www.google.com/');
  await page.goBack();
  await codeForm();
  // No code was sent again.
  expect(await inbox(request, phone.msisdn)).toHaveLength(1);

  await codeField.fill(code);
  await page.getByRole('button', { name: 'Ativar' }).click();
  await page.waitForURL('**/cliente/hero', { timeout: 25_000 });
  await expect(page.getByRole('heading', { level: 1, name: 'Sua conta EXA Cloud está ativa!' })).toBeVisible();
  await page.goBack();
  await expect(phoneField).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(new URL(page.url()).pathname).toBe(PAGE);
  expect(await keptAttempt(page, PAGE)).toBeNull();
});
