import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import type { AxeResults, ElementContext, RunOptions } from 'axe-core';

// Every browser test imports `test` and `expect` from here. The fixture:
// - runs axe after each page.goto and once more on the page's final state, failing the test on
//   any serious or critical violation (WCAG 2.0/2.1/2.2 A and AA rules);
// - answers requests to hosts outside this machine with a stub page, since the sandbox has no
//   network and external links must still open somewhere.

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21aa', 'wcag22aa'];

// Frames whose content is not ours to audit: the chatbot host's page and embedded PDFs.
const FOREIGN_FRAMES = ['iframe[data-external-host]', 'iframe.pdf-frame'];

// axe-core's own build, run inside the page. @axe-core/playwright's analyze() opened a blank page
// to finish every run, which tripled its cost (docs/benchmarks.md, "axe inside the page");
// every frame of ours is in the top document, and the foreign ones are not audited anyway.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const EXTERNAL_STUB = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<title>Página externa simulada</title></head><body><main><h1>Página externa simulada</h1></main></body></html>`;

// Pages already audited in this worker, by viewport width and a hash of the whole DOM:
// the same markup at the same width gives the same result, and axe takes most of a second a run.
const audited = new Set<string>();

async function domFingerprint(page: Page): Promise<string> {
  const width = page.viewportSize()?.width ?? 0;
  const hash = await page.evaluate(() => {
    const html = document.documentElement.outerHTML;
    let h = 0;
    for (let i = 0; i < html.length; i += 1) h = (Math.imul(h, 31) + html.charCodeAt(i)) | 0;
    return `${h}:${html.length}`;
  });
  return `${width}|${hash}`;
}

export async function auditAccessibility(page: Page, label: string): Promise<void> {
  const fingerprint = await domFingerprint(page);
  if (audited.has(fingerprint)) return;
  // A client-side navigation keeps the document, and axe with it.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const context: ElementContext = { exclude: FOREIGN_FRAMES.map((selector) => [selector]) };
  const options: RunOptions = { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'], iframes: false };
  const results: AxeResults = await page.evaluate(
    ([context, options]) => (window as unknown as { axe: typeof import('axe-core') }).axe.run(context, options),
    [context, options] as const,
  );
  const blocking = results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')).slice(0, 5),
    }));
  expect(blocking, `axe found serious or critical violations on ${label}`).toEqual([]);
  audited.add(fingerprint);
}

async function stubExternalHosts(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => !LOCAL_HOSTS.has(url.hostname),
    (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: EXTERNAL_STUB }),
  );
}

/**
 * Waits until the SPA has rendered a page (its lazy chunk loaded and a <main> in place) and
 * React owns it: a prerendered page shows its <main> before it hydrates, and a click then does
 * nothing (web/src/App.tsx marks <html data-interactive> once the page's boundary committed).
 */
export async function waitForPage(page: Page, { interactive = true } = {}): Promise<void> {
  await page.locator('main').first().waitFor({ state: 'visible' });
  // Only the portal's own pages carry the mark (not the stubs of external sites).
  if (interactive && LOCAL_HOSTS.has(new URL(page.url()).hostname)) {
    await page.locator('html[data-interactive]').waitFor({ state: 'attached' });
  }
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await stubExternalHosts(context);
    await use(context);
  },
  page: async ({ page }, use, testInfo) => {
    const goto = page.goto.bind(page);
    page.goto = async (url, options) => {
      const response = await goto(url, options);
      // A caller that asked for the commit alone acts before React takes the page over.
      await waitForPage(page, { interactive: options?.waitUntil !== 'commit' });
      await auditAccessibility(page, `${url} (after navigation)`);
      return response;
    };
    await use(page);
    // The final state matters too: an opened menu, panel or accordion is audited as left.
    if (testInfo.status === testInfo.expectedStatus && !page.isClosed() && page.url().startsWith('http')) {
      await waitForPage(page);
      await auditAccessibility(page, `${page.url()} (end of test)`);
    }
  },
});

export { expect };
