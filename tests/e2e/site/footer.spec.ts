import { expect, test } from '../fixtures';

const PAGES = ['/', '/contato', '/faq', '/seguranca', '/cloud', '/gestao', '/chat', '/seguranca/brisanet'];

test('every page has the footer with copyright, tax id, seals and links', async ({ page, request }) => {
  // Eight pages, each audited by axe: more than the default 30 s on a loaded 2-core machine.
  test.setTimeout(90_000);
  // The company's identity comes from the public configuration the operator sets.
  const { company } = await (await request.get('/api/public-config')).json();
  for (const path of PAGES) {
    await page.goto(path);
    const footer = page.getByRole('contentinfo');
    await expect(footer, path).toContainText(`© ${new Date().getFullYear()} ${company.legalName}`);
    await expect(footer, path).toContainText(`CNPJ ${company.cnpj}`);
    await expect(footer.getByRole('img', { name: 'Selo Empresa Ética certificada' }), path).toBeAttached();
    // No self-awarded badges: the ethical-company seal is the only one.
    await expect(footer.getByRole('img', { name: /selo/i }), path).toHaveCount(1);
    await expect(footer, path).not.toContainText(/LGPD CONFORME|SITE SEGURO/i);
    const hrefs = await footer.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs, path).toEqual(
      expect.arrayContaining([
        '/links?q=igualdade-salarial',
        '/links?q=nc-exa',
        '/links?q=anuncio-encerramento',
        '/assets/termos-de-uso.htm',
        'https://privacidade.exa.com.br',
        'https://www.exa.com.br/institucional/codigo-de-etica',
        'https://www.instagram.com/exa.seguranca',
        'https://www.linkedin.com/company/exa-seguranca',
      ]),
    );
  }
});

test('the privacy terms link opens the terms screen', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Termos de uso e privacidade' }).click();
  await expect(page).toHaveURL(/\/assets\/termos-de-uso\.htm$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Termos de uso e Privacidade' })).toBeVisible();
});

// The test script always runs the portal in sandbox mode, beside the sandbox at SANDBOX_URL.
test('in sandbox mode the footer links the sandbox SMS inbox', async ({ page }) => {
  const sandbox = process.env.SANDBOX_URL;
  expect(sandbox, 'SANDBOX_URL is set by scripts/test.sh').toBeTruthy();
  await page.goto('/');
  const inbox = page.getByRole('contentinfo').getByRole('link', { name: 'Caixa de SMS do sandbox' });
  await expect(inbox).toHaveAttribute('href', `${sandbox}/sms`);
});

test('in sandbox mode every page says, discreetly, that it is a demonstration', async ({ page }) => {
  for (const path of ['/', '/contato', '/seguranca/ativar']) {
    await page.goto(path);
    await expect(page.getByText(/^Ambiente de demonstração/), path).toBeVisible();
  }
});

test('an operator-set identity replaces the placeholders everywhere', async ({ page }) => {
  await page.route('**/api/public-config', async (route) => {
    const body = await (await route.fetch()).json();
    body.company = { ...body.company, legalName: 'EXA Operadora S.A.', cnpj: '11.222.333/0001-81', ethicsSealUrl: null };
    await route.fulfill({ json: body });
  });
  await page.goto('/contato');
  await expect(page.getByRole('contentinfo')).toContainText('© ' + new Date().getFullYear() + ' EXA Operadora S.A. · CNPJ 11.222.333/0001-81');
  await expect(page.locator('address')).toContainText('CNPJ 11.222.333/0001-81');
});

test('under 768px the footer keeps its top padding', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await page.goto('/');
  const paddingTop = await page.locator('.footer-grid').evaluate((el) => parseFloat(getComputedStyle(el).paddingTop));
  expect(paddingTop).toBeGreaterThanOrEqual(32);
});

test('the footer stacks into one centred column under 768px and spreads out from 768px', async ({ page }) => {
  await page.setViewportSize({ width: 767, height: 900 });
  await page.goto('/');
  const grid = page.locator('.footer-grid');
  const columns = async () => (await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns)).split(' ').length;
  expect(await columns()).toBe(1);
  await expect(grid).toHaveCSS('text-align', 'center');
  await page.setViewportSize({ width: 768, height: 900 });
  await expect.poll(columns).toBe(4);
});
