import { expect, test } from '../fixtures';
import { clear, expectCodePanel, fields, freshPhone, typeInto, uniqueLicence } from './support';

test('"Alterar número" on the code step starts over with the phone field, keeping what was typed', async ({ page }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await page.getByRole('button', { name: 'Alterar número' }).click();
  await expect(page.getByRole('heading', { name: 'Você está bem perto de ativar seu EXA Segurança' })).toBeVisible();
  // Issue 29: the phone and the licence are kept, for the visitor to correct.
  const t = phone.typed;
  await expect(f.phone).toHaveValue(`(${t.slice(0, 2)}) ${t.slice(2, 7)}-${t.slice(7)}`);
  await expect(f.licence).not.toHaveValue('');
  const other = freshPhone();
  await clear(f.phone);
  await typeInto(f.phone, other.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, other.masked);
});
