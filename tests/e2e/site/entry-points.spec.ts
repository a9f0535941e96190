import { expect, test } from '../fixtures';

// Ways in: activation from home and /seguranca, the download's audience up front, and the
// broadband landing's call to action on a phone's first screen.

for (const path of ['/', '/seguranca']) {
  test(`${path} leads a visitor with a code to activation`, async ({ page }) => {
    await page.goto(path);
    const block = page.getByRole('region', { name: 'Já tem um código?' });
    await expect(block).toBeVisible();
    await block.getByRole('link', { name: 'Ativar agora' }).click();
    await expect(page).toHaveURL(/\/seguranca\/ativar$/);
    await expect(page.getByRole('heading', { name: 'Você está bem perto de ativar seu EXA Segurança' })).toBeVisible();
  });
}

test('the desktop download says who can use it before the phone is asked', async ({ page }) => {
  await page.goto('/av-desktop/download/win_pc');
  const who = page.getByRole('complementary', { name: 'Para quem é este download' });
  await expect(who).toContainText('provedor parceiro');
  await expect(who).toContainText('Windows');
  const whoBox = await who.boundingBox();
  const phoneBox = await page.getByLabel('Número de celular').boundingBox();
  expect(whoBox && phoneBox && whoBox.y < phoneBox.y).toBe(true);
  await page.goto('/av-desktop/download/mac');
  await expect(page.getByRole('complementary', { name: 'Para quem é este download' })).toContainText('Mac');
});

test.describe('on a 375px phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('the broadband landing shows its call to action in the first screen', async ({ page }) => {
    await page.goto('/seguranca/brisanet');
    const cta = page.getByRole('link', { name: 'Ativar minha proteção' });
    await expect(cta).toHaveAttribute('href', '/seguranca/ativarbrisanet');
    await expect(cta).toBeInViewport({ ratio: 1 });
  });
});
