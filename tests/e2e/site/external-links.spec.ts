import { expect, test } from '../fixtures';

const PAGES = [
  '/',
  '/contato',
  '/faq',
  '/seguranca',
  '/cloud',
  '/gestao',
  '/chat',
  '/seguranca/brisanet',
  '/links?q=nc-exa',
  '/assets/termos-de-uso.htm',
];

test('every link to another site opens in a new tab without access to our window', async ({ page }) => {
  // Ten pages, each audited by axe: ~29 s alone on a loaded 2-core machine, so more than the default 30 s.
  test.setTimeout(90_000);
  for (const path of PAGES) {
    await page.goto(path);
    const external = await page.locator('a[href^="http"]').evaluateAll((links) =>
      links.map((a) => ({ href: a.getAttribute('href'), target: a.getAttribute('target'), rel: a.getAttribute('rel') })),
    );
    expect(external.length, path).toBeGreaterThan(0);
    for (const link of external) {
      expect(link.target, `${path} ${link.href}`).toBe('_blank');
      expect(link.rel ?? '', `${path} ${link.href}`).toContain('noopener');
    }
  }
});

test('a press article opens in a new tab and the home page stays', async ({ page }) => {
  await page.goto('/');
  const link = page.locator('#exa-in-the-press').getByRole('link').first();
  const href = await link.getAttribute('href');
  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup).toHaveURL(href ?? '');
  await expect(page).toHaveURL(/\/$/);
});

test('the whistleblower channel opens in a new tab', async ({ page }) => {
  await page.goto('/contato');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: 'Acessar o canal de denúncias' }).click(),
  ]);
  await expect(popup).toHaveURL('https://canaldedenuncia.exa.com.br/');
});

test('store buttons open the stores in a new tab', async ({ page }) => {
  await page.goto('/gestao');
  const [popup] = await Promise.all([
    page.waitForEvent('popup'),
    page.getByRole('link', { name: 'Disponível no Google Play' }).click(),
  ]);
  await expect(popup).toHaveURL(/^https:\/\/play\.google\.com\/store\/apps\/details\?id=br\.com\.exa\.gestao$/);
});
