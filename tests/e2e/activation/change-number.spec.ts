import { expect, test } from '../fixtures';
import { expectCodePanel, fields, freshPhone, typeInto, uniqueLicence } from './support';

test('"Alterar número" on the code step starts over with the phone field', async ({ page }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await page.getByRole('button', { name: 'Alterar número' }).click();
  await expect(page.getByRole('heading', { name: 'Você está bem perto de ativar seu EXA Segurança' })).toBeVisible();
  await expect(f.phone).toHaveValue('');
  const other = freshPhone();
  await typeInto(f.phone, other.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, other.masked);
});
