import { expect, test } from '../fixtures';

const DOCUMENTS = [
  { q: 'nc-exa', title: 'Nota de Compromisso EXA', pageTitle: 'Nota de Compromisso EXA', file: '/docs/nc-exa.pdf' },
  { q: 'anuncio-encerramento', title: 'Anúncio de Encerramento do aplicativo Hero', pageTitle: 'Anúncio de Encerramento do aplicativo Hero | EXA', file: '/docs/anuncio-encerramento.pdf' },
  { q: 'igualdade-salarial', title: 'Relatório de Transparência e Igualdade Salarial', pageTitle: 'Relatório de Transparência e Igualdade Salarial | EXA', file: '/docs/igualdade-salarial.pdf' },
];

for (const doc of DOCUMENTS) {
  test(`/links?q=${doc.q} embeds its own PDF`, async ({ page, request }) => {
    await page.goto(`/links?q=${doc.q}`);
    await expect(page.getByRole('heading', { level: 1, name: doc.title })).toBeVisible();
    const frame = page.getByTestId('pdf-frame');
    await expect(frame).toHaveAttribute('src', doc.file);
    await expect(frame).toHaveAttribute('title', doc.title);
    await expect(page).toHaveTitle(doc.pageTitle);

    const response = await request.get(doc.file);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
}

test('the three PDFs are different files', async ({ request }) => {
  const bodies = await Promise.all(DOCUMENTS.map(async (doc) => (await request.get(doc.file)).body()));
  expect(new Set(bodies.map((body) => body.toString('base64'))).size).toBe(3);
});

for (const search of ['?q=outro-documento', '?q=', '']) {
  test(`/links${search} goes back to the home page`, async ({ page }) => {
    await page.goto(`/links${search}`);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator('#discover-the-exa')).toBeAttached();
  });
}

test('the footer links open each document', async ({ page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  await footer.getByRole('link', { name: 'Nota de compromisso EXA' }).click();
  await expect(page).toHaveURL(/\/links\?q=nc-exa$/);
  await expect(page.getByTestId('pdf-frame')).toHaveAttribute('src', '/docs/nc-exa.pdf');
  await footer.getByRole('link', { name: 'Relatório de igualdade salarial' }).click();
  await expect(page.getByTestId('pdf-frame')).toHaveAttribute('src', '/docs/igualdade-salarial.pdf');
  await footer.getByRole('link', { name: 'Anúncio de encerramento do Hero' }).click();
  await expect(page.getByTestId('pdf-frame')).toHaveAttribute('src', '/docs/anuncio-encerramento.pdf');
});
