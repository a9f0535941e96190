import { auditAccessibility, expect, test } from '../fixtures';

// Every public route, at desktop and phone widths. The fixture audits after each goto;
// these tests also open the interactive parts so their states are audited too.
const ROUTES = [
  '/',
  '/contato',
  '/faq',
  '/seguranca',
  '/cloud',
  '/gestao',
  '/chat',
  '/links?q=nc-exa',
  '/links?q=anuncio-encerramento',
  '/links?q=igualdade-salarial',
  '/seguranca/brisanet',
  '/assets/termos-de-uso.htm',
  '/assets/politica-de-privacidade.htm',
  '/nao-existe',
];

for (const width of [1280, 375]) {
  test(`axe finds no serious or critical violation on any public route at ${width}px`, async ({ page }) => {
    // One axe run per route, a few seconds each.
    test.setTimeout(240_000);
    await page.setViewportSize({ width, height: 800 });
    for (const route of ROUTES) {
      await page.goto(route);
      await expect(page.locator('main')).toBeVisible();
    }
  });
}

test('open submenu, FAQ and chatbot pass axe', async ({ page }) => {
  await page.goto('/faq');
  await page.getByRole('button', { name: 'Produtos' }).click();
  await auditAccessibility(page, 'submenu open');
  await page.getByRole('button', { name: 'Gestão Digital', exact: true }).click();
  await page.getByRole('button', { name: 'Como funcionam as áreas favoritas?' }).click();
  await page.getByRole('button', { name: 'Abrir chat de atendimento' }).click();
  await expect(page.getByRole('dialog', { name: 'Chat de atendimento EXA' })).toBeVisible();
});

test('the open mobile menu passes axe', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Abrir menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Produtos' }).click();
  await expect(page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: /Proteção Pix/ })).toBeVisible();
});
