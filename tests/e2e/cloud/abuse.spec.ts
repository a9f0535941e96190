// Issue 17: "Voltar" and the same details again used to send a new code each time, with no
// wait. Now a phone gets five codes in ten minutes across the portal; the sixth try shows the
// limit's message over the form, keeps what was typed, and sends nothing.

import { expect, test } from '../fixtures';
import { banner, freshSerial, inbox, reachCodeForm } from './helpers';

const LIMIT_MESSAGE = 'Você pediu muitos códigos para este número. Por segurança, aguarde alguns minutos e tente de novo.';

test('"Voltar" and Continuar again: the sixth code in ten minutes is refused with a clear message', async ({ page, request }) => {
  test.setTimeout(90_000);
  const serial = freshSerial();
  const { phone } = await reachCodeForm(page, request, serial);
  for (let sent = 2; sent <= 5; sent += 1) {
    await page.getByRole('button', { name: 'Voltar' }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect.poll(async () => (await inbox(request, phone.msisdn)).length, { timeout: 10_000 }).toBe(sent);
  }
  await page.getByRole('button', { name: 'Voltar' }).click();
  await page.getByRole('button', { name: 'Continuar' }).click();

  await expect(banner(page)).toHaveText(LIMIT_MESSAGE, { timeout: 15_000 });
  await expect(page.getByLabel('Celular', { exact: true })).toHaveValue(phone.typed);
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue(serial);
  await expect(page.getByLabel('Código recebido', { exact: true })).toHaveCount(0);
  expect(await inbox(request, phone.msisdn)).toHaveLength(5);
});
