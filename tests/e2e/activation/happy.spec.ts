import { expect, test } from '../fixtures';
import {
  activate,
  codeFor,
  expectCodePanel,
  expectNoindex,
  expectStoreRedirect,
  fields,
  freshPhone,
  typeInto,
  uniqueLicence,
} from './support';

// Each variant's happy path, end to end: the page, the orchestrator, its runner and the sandbox
// upstreams; the code comes from the sandbox's SMS inbox.

for (const [path, partner] of [
  ['/seguranca/ativar', null],
  ['/seguranca/ativarbradescoseguros', 'Bradesco Seguros'],
] as const) {
  test(`${path}: phone and licence, code, subscribed, off to the store`, async ({ page, request }) => {
    const phone = freshPhone();
    const f = fields(page);
    await page.goto(path);
    await expectNoindex(page);
    await expect(page.getByRole('heading', { name: 'Você está bem perto de ativar seu EXA Segurança' })).toBeVisible();
    if (partner) await expect(page.getByLabel(`Parceiro ${partner}`)).toBeVisible();
    await expect(f.cpfCnpj).toHaveCount(0);
    await typeInto(f.phone, phone.typed);
    await expect(f.phone).toHaveValue(phone.masked);
    await f.licence.fill(uniqueLicence());
    await page.getByRole('button', { name: 'Validar' }).click();
    await expectCodePanel(page, phone.masked);
    await activate(page, await codeFor(request, phone.msisdn));
    await expectStoreRedirect(page);
  });
}

test('/seguranca/ativarsumicity: the licence comes from the link, locked', async ({ page, request }) => {
  const phone = freshPhone();
  const licence = uniqueLicence('SUMI');
  const f = fields(page);
  await page.goto(`/seguranca/ativarsumicity?licenca=${licence}`);
  await expectNoindex(page);
  await expect(f.licence).toHaveValue(licence);
  await expect(f.licence).toBeDisabled();
  await typeInto(f.phone, phone.typed);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await activate(page, await codeFor(request, phone.msisdn));
  await expectStoreRedirect(page);
});

test('/seguranca/ativarbrisanet: partner login, back with the code, subscribed by hash', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativarbrisanet');
  await expectNoindex(page);
  const login = page.getByRole('link', { name: 'Clique aqui para ativar a proteção EXA Segurança' });
  await expect(login).toHaveAttribute('href', /\/oauth\/authorize\?.*scope=offline.*state=[\w-]{43}.*code_challenge=[\w-]{43}&code_challenge_method=S256/);
  await login.click();
  // The partner's consent page (sandbox), then back to the portal with ?code=&state=, which
  // the page sends once and takes out of the address bar.
  await page.getByRole('button', { name: 'Autorizar e continuar' }).click();
  await expect(f.phone).toBeVisible();
  expect(new URL(page.url()).pathname).toBe('/seguranca/ativarbrisanet');
  expect(new URL(page.url()).search).toBe('');
  await expect(f.licence).toHaveCount(0);
  await typeInto(f.phone, phone.typed);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await activate(page, await codeFor(request, phone.msisdn));
  await expectStoreRedirect(page);
});

test('/seguranca/ativaragility: e-mail panel, partner plan kept, subscribed by hash', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativaragility');
  await expectNoindex(page);
  await typeInto(f.phone, phone.typed);
  await f.email.fill(`cliente.${phone.typed}@exemplo.test`);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  // Spec section 3: the partner's plan id is stored locally as hash_agility_plan.
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem('hash_agility_plan'))).toMatch(/^plan-[0-9a-f]{32}$/);
  await activate(page, await codeFor(request, phone.msisdn));
  await expectStoreRedirect(page);
});

test('/seguranca/tim: phone and CPF, Continuar, product list with download buttons', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await expectNoindex(page);
  await expect(f.licence).toHaveCount(0);
  await typeInto(f.phone, phone.typed);
  await typeInto(f.cpfCnpj, '52998224725');
  await expect(f.cpfCnpj).toHaveValue('529.982.247-25');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expectCodePanel(page, phone.masked);
  await activate(page, await codeFor(request, phone.msisdn));
  await expect(page.getByRole('heading', { name: 'Estes são os serviços disponíveis para seu plano.' })).toBeVisible();
  // The sandbox's default plan grants the three products; on a computer each opens its page.
  for (const [name, href] of [
    ['EXA Segurança', '/seguranca'],
    ['EXA Cloud', '/cloud'],
    ['Gestão Digital', '/gestao'],
  ]) {
    const button = page.getByRole('link', { name: `Baixar ${name}` });
    await expect(button).toHaveAttribute('href', href);
    await expect(button).toHaveAttribute('target', '_blank');
  }
  const [tab] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: 'Baixar EXA Cloud' }).click()]);
  await tab.waitForURL('**/cloud');
  await tab.close();
});

test('/seguranca/tim accepts an alphanumeric CNPJ in the mask', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await typeInto(f.cpfCnpj, '12abc34501de35');
  await expect(f.cpfCnpj).toHaveValue('12.ABC.345/01DE-35');
});
