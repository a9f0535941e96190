import { expect, test } from '../fixtures';

test.describe('desktop menu at 1280px', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('shows the four items and no hamburger', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Menu principal', exact: true });
    await expect(nav.getByRole('link', { name: 'Início' })).toHaveAttribute('href', '/');
    await expect(nav.getByRole('button', { name: 'Produtos' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Perguntas Frequentes' })).toHaveAttribute('href', '/faq');
    await expect(nav.getByRole('link', { name: 'Contato' })).toHaveAttribute('href', '/contato');
    await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeHidden();
  });

  test('the Produtos submenu toggles on click, with the spec geometry', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Produtos' });
    const panel = page.getByTestId('desktop-submenu');
    await expect(panel).toHaveCount(0);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(panel).toBeVisible();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toHaveCSS('width', '280px');
    await expect(panel).toHaveCSS('top', '75px');
    await expect(panel).toHaveCSS('border-radius', '8px');
    await expect(panel.getByRole('link', { name: /EXA Segurança/ })).toHaveAttribute('href', '/seguranca');
    await expect(panel.getByRole('link', { name: /EXA Cloud/ })).toHaveAttribute('href', '/cloud');
    await expect(panel.getByRole('link', { name: /Gestão Digital/ })).toHaveAttribute('href', '/gestao');
    const pix = panel.getByRole('link', { name: /Proteção Pix/ });
    await expect(pix).toHaveAttribute('target', '_blank');
    await expect(pix).toHaveAttribute('href', /^https:\/\//);

    await toggle.click();
    await expect(panel).toHaveCount(0);
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  test('a submenu pick navigates and closes the panel', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Produtos' }).click();
    await page.getByTestId('desktop-submenu').getByRole('link', { name: /Gestão Digital/ }).click();
    await expect(page).toHaveURL(/\/gestao$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Gestão Digital' })).toBeVisible();
    await expect(page.getByTestId('desktop-submenu')).toHaveCount(0);
  });

  test('Pix protection opens on its external site in a new tab', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Produtos' }).click();
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByTestId('desktop-submenu').getByRole('link', { name: /Proteção Pix/ }).click(),
    ]);
    await expect(popup).toHaveURL('https://pix.exa.com.br/');
    await expect(page).toHaveURL(/\/$/);
  });

  test('menu links move between pages', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Menu principal', exact: true });
    await nav.getByRole('link', { name: 'Perguntas Frequentes' }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Perguntas Frequentes' })).toBeVisible();
    await nav.getByRole('link', { name: 'Contato' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Contato' })).toBeVisible();
    await nav.getByRole('link', { name: 'Início' }).click();
    await expect(page.locator('#discover-the-exa')).toBeAttached();
  });
});

test.describe('hamburger menu at 375px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('hides the desktop items and opens a full-screen menu with the same items', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('navigation', { name: 'Menu principal', exact: true })).toBeHidden();
    await page.getByRole('button', { name: 'Abrir menu' }).click();

    const menu = page.getByRole('dialog', { name: 'Menu' });
    await expect(menu).toBeVisible();
    await expect.poll(() => menu.boundingBox()).toEqual({ x: 0, y: 0, width: 375, height: 740 });

    await expect(menu.getByRole('link', { name: 'Início' })).toHaveAttribute('href', '/');
    await expect(menu.getByRole('link', { name: 'Perguntas Frequentes' })).toHaveAttribute('href', '/faq');
    await expect(menu.getByRole('link', { name: 'Contato' })).toHaveAttribute('href', '/contato');
    const cloud = menu.getByRole('link', { name: 'Acessar meu EXA Cloud' });
    await expect(cloud).toHaveAttribute('href', 'https://cloud.exa.com.br');
    await expect(cloud).toHaveAttribute('target', '_blank');
    await expect(menu.getByRole('link', { name: 'EXA no Instagram' })).toHaveAttribute('target', '_blank');
    await expect(menu.getByRole('link', { name: 'EXA no LinkedIn' })).toHaveAttribute('target', '_blank');

    await menu.getByRole('button', { name: 'Produtos' }).click();
    await expect(menu.getByRole('link', { name: /EXA Segurança/ })).toHaveAttribute('href', '/seguranca');
    await expect(menu.getByRole('link', { name: /^EXA Cloud/ })).toHaveAttribute('href', '/cloud');
    await expect(menu.getByRole('link', { name: /Gestão Digital/ })).toHaveAttribute('href', '/gestao');
    await expect(menu.getByRole('link', { name: /Proteção Pix/ })).toHaveAttribute('target', '_blank');
  });

  test('closes with its close icon', async ({ page }) => {
    await page.goto('/faq');
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
    await page.getByRole('button', { name: 'Fechar menu' }).click();
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    await expect(page).toHaveURL(/\/faq$/);
  });

  test('closes after a pick and shows the picked page', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Abrir menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByRole('button', { name: 'Produtos' }).click();
    await menu.getByRole('link', { name: /^EXA Cloud/ }).click();
    await expect(page).toHaveURL(/\/cloud$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'EXA Cloud' })).toBeVisible();

    await page.getByRole('button', { name: 'Abrir menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Contato' }).click();
    await expect(page).toHaveURL(/\/contato$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toHaveCount(0);
  });
});

test('at 651px the desktop menu is back', async ({ page }) => {
  await page.setViewportSize({ width: 651, height: 800 });
  await page.goto('/');
  await expect(page.getByRole('navigation', { name: 'Menu principal', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeHidden();
  await page.setViewportSize({ width: 650, height: 800 });
  await expect(page.getByRole('navigation', { name: 'Menu principal', exact: true })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Abrir menu' })).toBeVisible();
});
