import { constants, gzipSync } from 'node:zlib';
import { expect, test } from '../fixtures';

// The marketing pages must not wait for the flows' code: each route has its own chunk.
const FLOW_CHUNKS = /(ActivationPage|DownloadPage|CloudPage|ClienteHero)-[\w-]+\.js$/;

for (const path of ['/', '/seguranca', '/faq']) {
  test(`${path} loads no flow chunk`, async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.filter((script) => FLOW_CHUNKS.test(script))).toEqual([]);
  });
}

test('a flow chunk loads only when its route is opened', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/seguranca');
  await page.getByRole('link', { name: 'Baixar para Windows' }).click();
  await expect(page).toHaveURL(/\/av-desktop\/download\/win_pc$/);
  await expect.poll(() => scripts.some((script) => /DownloadPage-[\w-]+\.js$/.test(script))).toBe(true);
});

// Issue 25: the entry chunk of / at most 70 kB gzip (the build fails over it too:
// web/scripts/bundle-budget.mjs). Measured as sent: gzip at the build's level.
test('the entry chunk of / is at most 70 kB gzip', async ({ request }) => {
  const html = await (await request.get('/')).text();
  const entry = html.match(/<script type="module"[^>]*src="([^"]+)"/)?.[1];
  expect(entry).toBeTruthy();
  const body = await (await request.get(entry!)).body();
  expect(gzipSync(body, { level: constants.Z_BEST_COMPRESSION }).length).toBeLessThanOrEqual(70_000);
});
