import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '../fixtures';

// Every route of the site at a 375 px phone and a 1280 px desktop, as full-page screenshots in
// the test artefacts: test-results/screenshots/{375,1280}/{route}.png (also attached to the
// HTML report), to be looked at before closing work on the pages (not taken in CI). Each shot
// also checks what a visitor at that width gets: the server's status, a page heading, every
// picture loaded, the site's typeface, and no sideways scrolling.
//
// The route list is the server's own (SPA_ROUTES in orchestrator/src/http/static_files.rs, the
// same table as web/src/App.tsx), so a new route gets its screenshots without editing this file.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const STATIC_FILES = readFileSync(join(ROOT, 'orchestrator/src/http/static_files.rs'), 'utf8');

function rustList(name: string): string[] {
  const body = STATIC_FILES.match(new RegExp(`const ${name}: &\\[&str\\] = &\\[([^\\]]*)\\]`))?.[1];
  if (!body) throw new Error(`${name} not found in static_files.rs`);
  return [...body.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
}

// Routes that are no page of ours: what they are instead is checked in other tests.
const NOT_PAGES: Record<string, string> = {
  '/termos': 'redirects to the external terms page (external-links.spec.ts)',
  '/assets/termos-de-uso-e-privacidade.pdf': 'a PDF file (pages.spec.ts)',
};
// One example value for each route with a parameter.
const PARAM_EXAMPLES: Record<string, string[]> = {
  '/av-desktop/download/': ['win_pc', 'mac'],
  '/suporte/tentativas/': ['activation-exemplo'],
};

const ROUTES = [
  ...rustList('SPA_ROUTES').filter((path) => !(path in NOT_PAGES)),
  ...rustList('SPA_PARAM_ROUTES').flatMap((prefix) => {
    const examples = PARAM_EXAMPLES[prefix];
    if (!examples) throw new Error(`no example for ${prefix}: add one to PARAM_EXAMPLES`);
    return examples.map((value) => prefix + value);
  }),
];
const NOT_FOUND = '/pagina-que-nao-existe';

const slug = (path: string) => (path === '/' ? 'home' : path.slice(1).replace(/[^a-z0-9]+/gi, '-'));

test('the screenshot list covers every route of the server table', () => {
  expect(ROUTES).toContain('/');
  expect(ROUTES).toContain('/seguranca/ativarbrisanet');
  expect(ROUTES).toContain('/av-desktop/download/win_pc');
  expect(ROUTES.length).toBeGreaterThanOrEqual(25);
});

for (const width of [375, 1280]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 800 } });

    for (const path of [...ROUTES, NOT_FOUND]) {
      test(`${path}`, async ({ page }, testInfo) => {
        const response = await page.goto(path);
        expect(response?.status(), 'HTTP status').toBe(path === NOT_FOUND ? 404 : 200);
        // Not 'networkidle': the chat page's frame of the chatbot kept it from ever coming on a
        // busy CI machine (30 s, every request answered). What the shot needs is waited for below.
        await page.waitForLoadState('load');
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await page.evaluate(() => document.fonts.ready);
        // The site's own typeface (src/typeface.ts, loaded after the first paint) is the one in use, not a system font.
        // It starts loading after the first paint, so `fonts.ready` may resolve before it is asked: polled.
        await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px "Inter Variable"'))).toBe(true);

        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);

        // Lazy pictures below the fold load only on scroll; a full-page shot does not scroll.
        await page.evaluate(() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => img.setAttribute('loading', 'eager')));
        await expect
          .poll(() => page.evaluate(() => [...document.images].filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src)))
          .toEqual([]);

        // The picture is for people to look at; CI keeps nothing but its output, and a full-page
        // PNG of every route was a large part of the browser suite's time there.
        if (process.env.CI) return;
        const file = join(testInfo.project.outputDir, 'screenshots', String(width), `${slug(path)}.png`);
        mkdirSync(dirname(file), { recursive: true });
        await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
        await testInfo.attach(`${width}-${slug(path)}`, { path: file, contentType: 'image/png' });
      });
    }
  });
}
