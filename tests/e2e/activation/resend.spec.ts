import { expect, test } from '../fixtures';
import { codeFor, expectCodePanel, fields, freshPhone, sms, typeInto, uniqueLicence } from './support';

// Spec section 4: after a resend the link counts down 60 s ('Reenviando em N segundos...') and
// 'Ativar' stays disabled; then 'Reenviar código' returns. The page's clock is Playwright's, so
// the 60 s pass without waiting them; the server's own refusal meanwhile is covered by
// orchestrator/tests/activation_api.rs.

test('resend: a new code, the countdown, Ativar disabled, then the link and the button return', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.clock.install();
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await codeFor(request, phone.msisdn, 1);

  await page.getByRole('button', { name: 'Reenviar código' }).click();
  await expect(page.getByText(/^Reenviando em (60|59|58) segundos\.\.\.$/)).toBeVisible();
  const code = await codeFor(request, phone.msisdn, 2);
  expect((await sms(request, phone.msisdn)).length).toBe(2);
  await f.pincode.fill(code);
  await f.terms.check();
  await expect(f.activate).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Reenviar código' })).toHaveCount(0);

  await page.clock.fastForward(30_000);
  await expect(page.getByText(/^Reenviando em (30|29|28) segundos\.\.\.$/)).toBeVisible();
  await expect(f.activate).toBeDisabled();

  await page.clock.fastForward(31_000);
  await expect(page.getByRole('button', { name: 'Reenviar código' })).toBeVisible();
  await expect(page.getByText(/Reenviando em/)).toHaveCount(0);
  await expect(f.activate).toBeEnabled();
});
