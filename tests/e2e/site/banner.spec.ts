import { expect, test } from '../fixtures';

const TEXT = 'Agora o Hero é EXA Segurança!';

test('the announcement shows in the home header, closes, stores poupup and stays gone after reload', async ({ page }) => {
  await page.goto('/');
  const banner = page.getByRole('banner').getByRole('region', { name: 'Aviso' });
  await expect(banner).toContainText(TEXT);
  expect(await page.evaluate(() => window.localStorage.getItem('poupup'))).toBeNull();

  await banner.getByRole('button', { name: 'Fechar aviso' }).click();
  await expect(page.getByText(TEXT)).toHaveCount(0);
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('poupup'))).not.toBeNull();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(TEXT)).toHaveCount(0);
});

test('the announcement comes back when poupup is removed', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Fechar aviso' }).click();
  await page.evaluate(() => window.localStorage.removeItem('poupup'));
  await page.reload();
  await expect(page.getByText(TEXT)).toBeVisible();
});

test('the announcement is only on the home page', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: 'Perguntas Frequentes' })).toBeVisible();
  await expect(page.getByText(TEXT)).toHaveCount(0);
});

test.describe('on a 375 px phone', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('header and banner together leave the first screen to the page (at most 105 px)', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText(TEXT)).toBeVisible();
    const header = await page.locator('.site-header').boundingBox();
    expect(header?.height).toBeLessThanOrEqual(105);
    await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeVisible();
  });
});
