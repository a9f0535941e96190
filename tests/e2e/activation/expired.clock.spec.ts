import { expect, test } from '../fixtures';
import { activate, codeFor, expectCodePanel, fields, freshPhone, SANDBOX_URL, typeInto, uniqueLicence } from './support';

// Moves the sandbox clock 16 minutes forward (codes live 15): the only activation test that
// does, since the clock is shared by every attempt on the sandbox.

test('an expired code answers 403: invalid or expired', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  const code = await codeFor(request, phone.msisdn);
  const moved = await request.post(`${SANDBOX_URL}/admin/clock`, { data: { advance_seconds: 16 * 60 } });
  expect(moved.ok()).toBe(true);
  await activate(page, code);
  await expect(f.banner).toHaveText('Código inválido ou expirado, solicite um novo código e tente novamente!');
});
