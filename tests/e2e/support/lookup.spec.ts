import { expect, test } from '../fixtures';
import { attemptPage, createStaff, lookUpPhone, lookup, needsStaffDatabase, phoneForms, signIn, visitorAtCodePanel } from './helpers';

// The look-up (`/suporte`): a visitor's phone, typed in any common form, finds their attempt.

needsStaffDatabase();
test.describe.configure({ timeout: 90_000 });

test('a phone in three forms finds the same attempt in flight, and the query stays out of the address', async ({
  page,
  browser,
  request,
}) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const staff = createStaff('support');
  const forms = phoneForms(visitor.phone);
  const l = lookup(page);
  await signIn(page, staff);

  for (const typed of [forms.masked, forms.digits, forms.international]) {
    await lookUpPhone(page, typed);
    await expect(page).toHaveURL(/\/suporte$/);
    await expect(l.rows).toHaveCount(2);
    const row = l.rows.nth(1);
    await expect(row).toContainText('Download do antivírus');
    await expect(row.getByText('Em andamento', { exact: true })).toBeVisible();
    await expect(row.getByRole('link', { name: /^Ver tentativa/ })).toHaveAttribute('href', /^\/suporte\/tentativas\/.+/);
  }
  await expect(page.getByRole('heading', { level: 2, name: /^1 tentativa/ })).toBeVisible();

  // Refresh and back keep the look-up: it is in the page's history state.
  await page.reload();
  await expect(l.rows).toHaveCount(2);
  await l.open.first().click();
  await expect(page).toHaveURL(/\/suporte\/tentativas\//);
  await page.goBack();
  await expect(page).toHaveURL(/\/suporte$/);
  await expect(l.rows).toHaveCount(2);
  await expect(l.phone).toHaveValue(visitor.phone.typed);

  // A filter that excludes it: the empty state.
  await page.getByLabel('Resultado').selectOption('completed');
  await l.search.click();
  await expect(page.getByRole('heading', { name: 'Nenhuma tentativa encontrada' })).toBeVisible();
  await expect(page).toHaveURL(/\/suporte$/);
  await visitor.context.close();
});

test('a malformed phone is refused in Portuguese before any search', async ({ page }) => {
  const staff = createStaff('support');
  await signIn(page, staff);
  await lookUpPhone(page, '1234');
  await expect(page.getByRole('alert')).toHaveText(/^Telefone inválido/);
  await expect(page).toHaveURL(/\/suporte$/);
});

test('the look-up works on a 375 px phone, as cards', async ({ page, browser, request }) => {
  const visitor = await visitorAtCodePanel(browser, request);
  const staff = createStaff('support');
  await page.setViewportSize({ width: 375, height: 800 });
  await signIn(page, staff);
  await lookUpPhone(page, phoneForms(visitor.phone).digits);
  await expect(page.getByRole('table')).toBeHidden();
  const card = page.locator('.sp-result-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Em andamento');
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await card.getByRole('link', { name: /^Ver tentativa/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: /^Tentativa de / })).toBeVisible();
  // Measured once the attempt's timeline is on screen, not while it loads.
  await expect(attemptPage(page).events.first()).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await visitor.context.close();
});
