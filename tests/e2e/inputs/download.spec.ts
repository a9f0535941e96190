import { expect, test } from '../fixtures';
import { freshPhone, toCodePanel, ui } from '../download/support';
import { paste, PASTED_PHONES } from './paste';

// Issue 29 on the desktop download, on a 375 px phone.

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

const PAGE = '/av-desktop/download/win_pc';

for (const pasted of PASTED_PHONES) {
  test(`a phone pasted as "${pasted}" is the national number, and Continue is enabled`, async ({ page }) => {
    await page.goto(PAGE);
    await paste(page, ui(page).phone, pasted);
    await expect(ui(page).phone).toHaveValue('(11) 91000-0001');
    await expect(ui(page).continue).toBeEnabled();
  });
}

test('an area code that does not exist gets the invalid-number message, and nothing is sent', async ({ page }) => {
  await page.goto(PAGE);
  await ui(page).phone.click();
  await ui(page).phone.pressSequentially('00910000001');
  await expect(page.getByText('Número inválido. Verifique novamente.')).toBeVisible();
  await expect(ui(page).continue).toBeDisabled();
  await expect(page.getByLabel('Código de verificação')).toHaveCount(0);
});

test('"Alterar número" keeps the phone to correct', async ({ page, request }) => {
  const phone = freshPhone();
  await toCodePanel(page, request, phone);
  await page.getByRole('button', { name: 'Alterar número' }).click();
  const t = phone.typed;
  await expect(ui(page).phone).toHaveValue(`(${t.slice(0, 2)}) ${t.slice(2, 7)}-${t.slice(7)}`);
  await expect(ui(page).continue).toBeEnabled();
});
