import { expect, test } from '../fixtures';

// Issue 29: the three /links pages show their embedded PDF with no policy error, and the
// policy stays strict elsewhere (only the portal may frame its PDFs; nothing else is framed).

test.use({ viewport: { width: 375, height: 812 } });

for (const q of ['nc-exa', 'anuncio-encerramento', 'igualdade-salarial']) {
  test(`/links?q=${q} shows its PDF with no Content-Security-Policy error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const pdf = page.waitForResponse((response) => response.url().endsWith(`/docs/${q}.pdf`));
    await page.goto(`/links?q=${q}`);
    const response = await pdf;
    expect(response.status()).toBe(200);
    expect(response.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
    // The frame holds the document, not Chrome's error page.
    const frame = page.frame({ url: (url) => url.pathname === `/docs/${q}.pdf` });
    expect(frame, 'the PDF frame navigated to the document').not.toBeNull();
    await frame?.waitForLoadState('load');
    expect(errors.filter((text) => /Content Security Policy|frame-ancestors|Refused to/i.test(text))).toEqual([]);
  });
}

test('a client-side visit from the home page shows the PDF too', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Nota de compromisso EXA' }).click();
  await expect(page.getByTestId('pdf-frame')).toHaveAttribute('src', '/docs/nc-exa.pdf');
  await expect.poll(() => page.frames().some((f) => f.url().endsWith('/docs/nc-exa.pdf'))).toBe(true);
  await page.frame({ url: (url) => url.pathname === '/docs/nc-exa.pdf' })?.waitForLoadState('load');
  expect(violations).toEqual([]);
});

test('pages and other files still may be framed by nobody', async ({ request }) => {
  for (const path of ['/', '/links?q=nc-exa', '/healthz']) {
    const csp = (await request.get(path)).headers()['content-security-policy'];
    expect(csp, path).toContain("frame-ancestors 'none'");
  }
});
