import { expect, test } from '../fixtures';

// The support console is its own lazy chunks: no marketing page downloads any of its code.
// Checked by content as well as by name, since a chunk shared by the console's pages is named
// after whichever module the bundler picks.

const SUPPORT_CHUNK = /Support\w*Page-[\w-]+\.js$/;
const SUPPORT_CODE = ['Console de suporte', '/api/staff/session', '/api/support/'];

for (const path of ['/', '/seguranca', '/faq', '/seguranca/ativar']) {
  test(`${path} loads no support console code`, async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.filter((script) => SUPPORT_CHUNK.test(new URL(script).pathname))).toEqual([]);
    for (const script of scripts) {
      const body = await (await page.request.get(script)).text();
      for (const needle of SUPPORT_CODE) expect(body.includes(needle), `${script} holds "${needle}"`).toBe(false);
    }
  });
}

test('the console loads its chunk only on its own route', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/suporte/entrar');
  await expect(page.getByRole('heading', { level: 1, name: 'Entrar no console de suporte' })).toBeVisible();
  expect(scripts.some((script) => /SupportSignInPage-[\w-]+\.js$/.test(script))).toBe(true);
});
