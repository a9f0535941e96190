import { expect, test } from '../fixtures';

// Issue 29: on a phone, Back with the menu, the chat or the help panel open closes the panel
// instead of leaving the page.

test.use({ viewport: { width: 375, height: 812 } });

test('Back closes the menu and stays on the page', async ({ page }) => {
  await page.goto('/');
  await page.goto('/faq');
  await page.getByRole('button', { name: /abrir menu/i }).click();
  const menu = page.getByRole('dialog', { name: 'Menu' });
  await expect(menu).toBeVisible();
  await page.goBack();
  await expect(menu).toHaveCount(0);
  await expect(page).toHaveURL(/\/faq$/);
  // The menu's own close leaves no extra entry: the next Back leaves the page as usual.
  await page.getByRole('button', { name: /abrir menu/i }).click();
  await page.getByRole('button', { name: 'Fechar menu' }).click();
  await expect(menu).toHaveCount(0);
  await expect(page).toHaveURL(/\/faq$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});

test('Back closes the chat panel', async ({ page }) => {
  await page.goto('/seguranca');
  await page.getByRole('button', { name: 'Abrir chat de atendimento' }).click();
  const chat = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });
  await expect(chat).toBeVisible();
  await page.goBack();
  await expect(chat).toHaveCount(0);
  await expect(page).toHaveURL(/\/seguranca$/);
});

test('Back closes the cloud help panel', async ({ page }) => {
  await page.goto('/cloud/positivo');
  await page.getByRole('button', { name: 'Onde encontro o número de série?' }).click();
  const help = page.getByRole('dialog', { name: 'Onde encontro o número de série?' });
  await expect(help).toBeVisible();
  await page.goBack();
  await expect(help).toHaveCount(0);
  await expect(page).toHaveURL(/\/cloud\/positivo$/);
});
