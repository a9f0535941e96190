import { expect, test } from '../fixtures';

const META = [
  { path: '/', title: 'EXA | Proteção digital para você e sua família' },
  { path: '/contato', title: 'Contato | EXA' },
  { path: '/faq', title: 'Perguntas Frequentes | EXA' },
  { path: '/seguranca', title: 'EXA Segurança: antivírus, VPN e navegação segura' },
  { path: '/cloud', title: 'EXA Cloud: backup de fotos, vídeos e arquivos' },
  { path: '/gestao', title: 'Gestão Digital: localização da família em tempo real | EXA' },
  { path: '/chat', title: 'Chat de atendimento | EXA' },
  { path: '/seguranca/brisanet', title: 'EXA Segurança para clientes Brisanet' },
  { path: '/assets/termos-de-uso.htm', title: 'Termos de uso e Privacidade | EXA' },
];

test('each page sets its own title, description and Open Graph tags', async ({ page }) => {
  const descriptions = new Set<string>();
  for (const { path, title } of META) {
    await page.goto(path);
    await expect(page, path).toHaveTitle(title);
    const description = await page.locator('meta[name="description"]').getAttribute('content');
    expect(description?.length ?? 0, path).toBeGreaterThan(50);
    descriptions.add(description ?? '');
    await expect(page.locator('meta[name="description"]'), path).toHaveCount(1);
    await expect(page.locator('meta[property="og:title"]'), path).toHaveAttribute('content', title);
    await expect(page.locator('meta[property="og:description"]'), path).toHaveAttribute('content', description ?? '');
    await expect(page.locator('meta[property="og:url"]'), path).toHaveAttribute('content', `https://www.exa.com.br${path}`);
    await expect(page.locator('meta[property="og:image"]'), path).toHaveAttribute('content', /^https:\/\/.+\.png$/);
    await expect(page.locator('meta[name="robots"]'), path).toHaveAttribute('content', 'index, follow');
  }
  expect(descriptions.size).toBe(META.length);
});

test('robots.txt allows the site and points at the sitemap', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  const body = await response.text();
  expect(body).toContain('User-agent: *');
  expect(body).toMatch(/^Sitemap: https:\/\/\S+\/sitemap\.xml$/m);
  expect(body).not.toMatch(/^Disallow: \/$/m);
});

test('sitemap.xml lists the public pages and no activation page', async ({ request }) => {
  const response = await request.get('/sitemap.xml');
  expect(response.status()).toBe(200);
  const body = await response.text();
  const locs = [...body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1].replace(/&amp;/g, '&')).pathname);
  expect(locs).toEqual(
    expect.arrayContaining(['/', '/seguranca', '/cloud', '/gestao', '/faq', '/contato', '/seguranca/brisanet', '/links']),
  );
  for (const hidden of ['/seguranca/ativar', '/seguranca/tim', '/cloud/positivo', '/av-desktop/download']) {
    expect(locs.some((loc) => loc.startsWith(hidden)), hidden).toBe(false);
  }
});

test('the favicon is served', async ({ request }) => {
  const response = await request.get('/favicon.svg');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('image/svg+xml');
});

test('activation pages are marked noindex', async ({ page }) => {
  for (const path of [
    '/seguranca/ativar',
    '/seguranca/ativarbrisanet',
    '/seguranca/tim',
    '/cloud/positivo',
    '/av-desktop/download/win_pc',
  ]) {
    await page.goto(path);
    await expect(page.locator('meta[name="robots"]').first(), path).toHaveAttribute('content', /noindex/);
  }
});
