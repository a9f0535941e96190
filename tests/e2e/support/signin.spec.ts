import { expect, test } from '../fixtures';
import { createStaff, needsStaffDatabase, nextCode, signIn, signInForm } from './helpers';

// Sign-in, sessions and roles of the support console (docs/support.md), in the browser.

needsStaffDatabase();

test('a wrong password and an unknown e-mail get the same Portuguese message', async ({ page }) => {
  const staff = createStaff('support');
  const form = signInForm(page);
  await page.goto('/suporte/entrar');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await form.email.fill(staff.email);
  await form.password.fill('senha-errada-de-proposito');
  await form.submit.click();
  await expect(form.alert).toBeVisible();
  // Read once the message is in: more than 10 characters, trimmed.
  await expect(form.alert).toHaveText(/^\s*\S[\s\S]{9,}\S\s*$/);
  const wrongPassword = (await form.alert.textContent())?.trim() ?? '';
  expect(wrongPassword.length).toBeGreaterThan(10);
  await expect(page).toHaveURL(/\/suporte\/entrar$/);
  await expect(form.password).toHaveValue('');

  await form.email.fill(`ninguem.${Date.now()}@exa.com.br`);
  await form.password.fill('senha-errada-de-proposito');
  await form.submit.click();
  await expect(form.alert).toHaveText(wrongPassword);
});

test('without a session a console page sends to sign-in and comes back after it', async ({ page }) => {
  const staff = createStaff('support');
  await page.goto('/suporte?phone=11910000001');
  await expect(page).toHaveURL(/\/suporte\/entrar\?volta=%2Fsuporte%3Fphone%3D11910000001$/);
  await signIn(page, staff, false);
  // Back on the page the old link named, its search moved out of the address.
  await expect(page).toHaveURL(/\/suporte$/);
  await expect(page.getByLabel('Telefone', { exact: true })).toHaveValue('11910000001');
  await expect(page.getByRole('heading', { level: 1, name: 'Buscar tentativas' })).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);

  const header = page.getByRole('banner');
  await expect(header).toContainText(staff.email);
  await expect(header).toContainText('Suporte');
  await header.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/suporte\/entrar$/);
  await page.goto('/suporte');
  await expect(page).toHaveURL(/\/suporte\/entrar$/);
});

test('an analyst lands on the funnels and is told the look-up is for support', async ({ page }) => {
  const analyst = createStaff('analyst');
  await signIn(page, analyst);
  await expect(page).toHaveURL(/\/analise/);
  await page.goto('/suporte');
  await expect(page.getByRole('heading', { level: 1, name: 'Este console é do suporte' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Analista');
  await expect(page.getByRole('search')).toHaveCount(0);
});

test('an admin signs in with the admin role shown', async ({ page }) => {
  const admin = createStaff('admin');
  await signIn(page, admin);
  await expect(page.getByRole('heading', { level: 1, name: 'Buscar tentativas' })).toBeVisible();
  await expect(page.getByRole('banner')).toContainText('Administração');
});

test('support signs in with the authenticator code, after a wrong one and never twice with one', async ({ page }) => {
  const staff = createStaff('support');
  const form = signInForm(page);
  await page.goto('/suporte/entrar');
  await form.email.fill(staff.email);
  await form.password.fill(staff.password);
  await form.submit.click();
  // The password was right: the code is asked for, the password kept.
  await expect(form.alert).toHaveText(/código de 6 dígitos/);
  await expect(form.code).toBeFocused();
  await expect(form.password).toHaveValue(staff.password);
  const code = nextCode(staff);
  // A code one digit off is refused and the field emptied.
  await form.code.fill(code.replace(/^./, (d) => String((Number(d) + 1) % 10)));
  await form.submit.click();
  await expect(form.alert).toHaveText(/Código incorreto ou já usado/);
  await expect(form.code).toHaveValue('');
  await form.code.fill(code);
  await form.submit.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buscar tentativas' })).toBeVisible();
  await page.getByRole('banner').getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/suporte\/entrar$/);

  // The same code again opens nothing; a recovery code does, once.
  await form.email.fill(staff.email);
  await form.password.fill(staff.password);
  await form.submit.click();
  await expect(form.code).toBeVisible();
  await form.code.fill(code);
  await form.submit.click();
  await expect(form.alert).toHaveText(/Código incorreto ou já usado/);
  await form.code.fill(staff.recoveryCodes[0]);
  await form.submit.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Buscar tentativas' })).toBeVisible();
});
