import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { keptAttempt } from '../resume/support';
import { activate, codeFor, expectCodePanel, fields, freshPhone, sms, typeInto, uniqueLicence } from './support';

// Issue 29: a reload, Back/Forward or a return from the app store resumes the tab's activation
// at the panel the visitor left, in every variant, the finished ones included. At 375 px.

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

const ACTIVATED = 'Pronto! Seu EXA Segurança está ativado.';
const PRODUCTS = 'Estes são os serviços disponíveis para seu plano.';

/**
 * The code panel read back: the phone as the server shows it (the tab keeps nothing personal,
 * so not as typed).
 */
const codePanelOf = (page: Page, phone: { typed: string }) => () =>
  expectCodePanel(page, `(${phone.typed.slice(0, 2)}) *****-${phone.typed.slice(-4)}`);

/** Reloads, then leaves for the home page and comes Back, checking `panel` each time. */
async function reloadAndBack(page: Page, place: string, panel: () => Promise<void>): Promise<void> {
  // The page keeps its attempt just after it shows (an effect): wait for it.
  await expect.poll(() => keptAttempt(page, place)).toMatch(/^activation-/);
  const attempt = await keptAttempt(page, place);
  await page.reload();
  await panel();
  await page.goto('/');
  await page.goBack();
  await panel();
  expect(await keptAttempt(page, place)).toBe(attempt);
}

for (const [path, query] of [
  ['/seguranca/ativar', ''],
  ['/seguranca/ativarbradescoseguros', ''],
  ['/seguranca/ativarsumicity', `?licenca=${uniqueLicence('SUMI')}`],
] as const) {
  test(`${path}: the form, the code panel and the ending survive a reload and Back`, async ({ page, request }) => {
    const phone = freshPhone();
    const f = fields(page);
    const place = `${path}${query}`;
    await page.goto(place);
    await expect(f.phone).toBeVisible();
    await reloadAndBack(page, place, () => expect(f.phone).toBeVisible());

    await typeInto(f.phone, phone.typed);
    if (!query) await f.licence.fill(uniqueLicence());
    await page.getByRole('button', { name: 'Validar' }).click();
    await expectCodePanel(page, phone.masked);
    const code = await codeFor(request, phone.msisdn);
    await reloadAndBack(page, place, codePanelOf(page, phone));
    // No code was sent again.
    expect(await sms(request, phone.msisdn)).toHaveLength(1);

    await activate(page, code);
    await expect(page.getByRole('heading', { name: ACTIVATED })).toBeVisible();
    // A computer goes to /seguranca after 3 s; Back shows the ending, which does not leave again.
    await page.waitForURL('**/seguranca', { timeout: 10_000 });
    await expect(page.locator('.activation')).toHaveCount(0);
    await page.goBack();
    await expect(page.getByRole('heading', { name: ACTIVATED })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Conhecer o EXA Segurança' })).toHaveAttribute('href', '/seguranca');
    await expect(page.getByText('Aguarde um instante enquanto te direcionamos ...')).toHaveCount(0);
    expect(new URL(page.url()).pathname).toBe(path);
  });
}

test('/seguranca/tim: back from the store, the product list is still there for the next app', async ({
  page,
  request,
}) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await typeInto(f.phone, phone.typed);
  await typeInto(f.cpfCnpj, '52998224725');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expectCodePanel(page, phone.masked);
  await reloadAndBack(page, '/seguranca/tim', codePanelOf(page, phone));
  await activate(page, await codeFor(request, phone.msisdn));
  const list = async () => {
    await expect(page.getByRole('heading', { name: PRODUCTS })).toBeVisible();
    await expect(page.getByRole('link', { name: /^Baixar / })).toHaveCount(3);
  };
  await list();
  // A phone's store opens in the same tab: leave for it, then come Back.
  await page.goto('https://apps.apple.com/br/app/exa-seguranca/id1');
  await page.goBack();
  await list();
  await reloadAndBack(page, '/seguranca/tim', list);
});

test('/seguranca/ativaragility: the e-mail panel and the code panel survive a reload', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativaragility');
  await expect(f.email).toBeVisible();
  await reloadAndBack(page, '/seguranca/ativaragility', () => expect(f.email).toBeVisible());
  await typeInto(f.phone, phone.typed);
  await f.email.fill(`cliente.${phone.typed}@exemplo.test`);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await codeFor(request, phone.msisdn);
  await reloadAndBack(page, '/seguranca/ativaragility', codePanelOf(page, phone));
});

test('/seguranca/ativarbrisanet: back from the partner, a reload keeps the phone form', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativarbrisanet');
  const login = page.getByRole('link', { name: 'Clique aqui para ativar a proteção EXA Segurança' });
  await expect(login).toBeVisible();
  await expect.poll(() => keptAttempt(page, '/seguranca/ativarbrisanet')).toMatch(/^activation-/);
  const beforeLogin = await keptAttempt(page, '/seguranca/ativarbrisanet');
  await login.click();
  await page.getByRole('button', { name: 'Autorizar e continuar' }).click();
  await expect(f.phone).toBeVisible();
  // The return is an attempt of its own, kept in place of the first.
  await expect.poll(() => keptAttempt(page, '/seguranca/ativarbrisanet')).not.toBe(beforeLogin);
  // The partner's return was spent: without resuming, a reload showed the partner login again.
  await reloadAndBack(page, '/seguranca/ativarbrisanet', async () => {
    await expect(f.phone).toBeVisible();
    await expect(login).toHaveCount(0);
  });
});
