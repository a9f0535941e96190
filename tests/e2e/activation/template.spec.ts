import { expect, test } from '../fixtures';

// The activation template around its panels: partner logos, the slim footer, why each field is
// asked, and no overlap down to 320px.

const PARTNER_PAGES = [
  { path: '/seguranca/ativarbradescoseguros', partner: 'Bradesco Seguros', logo: '/img/partners/bradesco-seguros.svg' },
  { path: '/seguranca/ativarsumicity', partner: 'Sumicity', logo: '/img/partners/sumicity.svg' },
  { path: '/seguranca/ativarbrisanet', partner: 'Brisanet', logo: '/img/partners/brisanet.svg' },
  { path: '/seguranca/ativaragility', partner: 'Agility', logo: '/img/partners/agility.svg' },
  { path: '/seguranca/tim', partner: 'TIM', logo: '/img/partners/tim.svg' },
];

test('each partner page shows the partner logo file', async ({ page }) => {
  for (const { path, partner, logo } of PARTNER_PAGES) {
    await page.goto(path);
    const image = page.getByRole('img', { name: `Parceiro ${partner}` });
    await expect(image, path).toHaveAttribute('src', logo);
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { message: path }).toBe(true);
  }
});

test('the partner logo never overlaps ours, from 320px up', async ({ page }) => {
  // Four page loads, each audited by axe (the fixture's goto): the budget of four tests.
  test.setTimeout(120_000);
  for (const width of [320, 375, 768, 1280]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto('/seguranca/ativarbradescoseguros');
    const ours = await page.getByRole('link', { name: 'EXA, página inicial' }).boundingBox();
    const theirs = await page.getByRole('img', { name: 'Parceiro Bradesco Seguros' }).boundingBox();
    expect(ours && theirs, `${width}px`).toBeTruthy();
    if (!ours || !theirs) continue;
    const apart = ours.x + ours.width <= theirs.x || theirs.y >= ours.y + ours.height;
    expect(apart, `${width}px: ours ${JSON.stringify(ours)}, theirs ${JSON.stringify(theirs)}`).toBe(true);
    expect(theirs.x + theirs.width, `${width}px`).toBeLessThanOrEqual(width);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${width}px: no sideways scroll`).toBeLessThanOrEqual(0);
  }
});

test('a slim footer gives privacy, terms and help without losing the form', async ({ page }) => {
  await page.goto('/seguranca/ativar');
  const footer = page.getByRole('contentinfo');
  for (const [name, href] of [
    ['Privacidade', '/assets/politica-de-privacidade.htm'],
    ['Termos de uso', '/assets/termos-de-uso.htm'],
    ['Ajuda', '/contato'],
  ]) {
    const link = footer.getByRole('link', { name });
    await expect(link).toHaveAttribute('href', href);
    await expect(link).toHaveAttribute('target', '_blank');
  }
  await page.getByLabel('Número do celular').pressSequentially('11912345678');
  const [help] = await Promise.all([page.context().waitForEvent('page'), footer.getByRole('link', { name: 'Ajuda' }).click()]);
  await expect(help.getByRole('heading', { level: 1, name: 'Contato' })).toBeVisible();
  await expect(page.getByLabel('Número do celular')).toHaveValue('(11) 91234-5678');
});

test('each field says why it is asked', async ({ page }) => {
  await page.goto('/seguranca/ativar');
  await expect(page.getByLabel('Número do celular')).toHaveAccessibleDescription(/código por SMS/);
  await expect(page.getByLabel('Código de licença')).toHaveAccessibleDescription(/confirma o seu plano/);
  await page.goto('/seguranca/tim');
  await expect(page.getByLabel('CPF/CNPJ')).toHaveAccessibleDescription(
    'Com o CPF ou CNPJ do titular, a TIM confirma que a assinatura é sua.',
  );
  await page.goto('/seguranca/ativaragility');
  await expect(page.getByLabel('E-mail')).toHaveAccessibleDescription(/identificamos a sua assinatura/);
});
