import { expect, test } from '../fixtures';

// The public pages arrive prerendered (web/scripts/prerender.mjs) once the server answers them with
// web/dist/prerendered/<route>.html (docs/site.md, "Prerendered pages").
// React must take over the server's HTML as it is: no hydration error, no element replaced.
const PAGES = ['/', '/seguranca', '/faq', '/cloud', '/gestao', '/contato', '/seguranca/brisanet'];

for (const path of PAGES) {
  test(`${path} is prerendered and hydrates without a mismatch`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    // Hold the entry back so the server's heading can be marked before React runs.
    await page.route(/\/static\/index-[\w-]+\.js$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await route.continue();
    });
    const response = await page.goto(path, { waitUntil: 'commit' });
    const html = (await response?.text()) ?? '';
    expect(html).toContain(`data-prerendered="${path}"`);
    await page.locator('h1').evaluate((heading) => heading.setAttribute('data-from-server', ''));
    // Hydrated: React has attached its handlers to the heading's fiber.
    await expect
      .poll(() => page.locator('h1').evaluate((h) => Object.keys(h).some((key) => key.startsWith('__reactFiber'))))
      .toBe(true);
    await page.waitForLoadState('networkidle');
    await expect(page.locator('h1[data-from-server]')).toHaveCount(1);
    expect(errors).toEqual([]);
  });
}

test('/?show-bot opens the chatbot on a prerendered page', async ({ page }) => {
  const response = await page.goto('/?show-bot');
  expect((await response?.text()) ?? '').toContain('data-prerendered="/"');
  await expect(page.getByRole('dialog', { name: 'Chat de atendimento EXA' })).toBeVisible();
});
