import { expect, test } from '../fixtures';
import {
  confirmCode,
  expectSteps,
  freshPhone,
  GENERIC_FAILURE,
  INVALID_CODE,
  newCode,
  REMOVAL_FAILURE,
  scenario,
  toCodePanel,
  ui,
  wrongCode,
} from './support';

// The desktop antivirus download, as a visitor does it, over every desktop scenario of the
// sandbox table (docs/sandbox.md): page → orchestrator → runner → sandbox upstreams.

const DONE = 'Seu download começou';

// A run goes through the SMS, the runner's calls and axe audits of every panel: allow for a
// busy two-core machine.
test.describe.configure({ timeout: 60_000 });

test('one partner: the code, then antivirus-installer.exe lands, and "clique aqui" downloads it again', async ({
  page,
  request,
}) => {
  const phone = scenario('11910000001');
  const before = await toCodePanel(page, request, phone);
  // It counts down from 90; a slow run may see it a few seconds in.
  await expect(page.getByText(/^Reenviar código em (90|[6-8]\d) segundos$/)).toBeVisible();

  const first = page.waitForEvent('download');
  await confirmCode(page, request, phone, before);
  const download = await first;
  expect(download.suggestedFilename()).toBe('antivirus-installer.exe');
  expect(await download.failure()).toBeNull();
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
  await expectSteps(page, 3);
  await expect(page.getByRole('radio')).toHaveCount(0);

  const again = page.waitForEvent('download');
  await page.getByRole('button', { name: 'clique aqui' }).click();
  expect((await again).suggestedFilename()).toBe('antivirus-installer.exe');
});

test('two partners: the visitor picks a card, then the file lands', async ({ page, request }) => {
  const phone = scenario('11910000002');
  const before = await toCodePanel(page, request, phone, 'mac');
  await confirmCode(page, request, phone, before);
  await expect(page.getByRole('heading', { name: 'Escolha o seu plano' })).toBeVisible({ timeout: 15_000 });
  await expectSteps(page, 3);
  const cards = page.getByRole('radio');
  await expect(cards).toHaveCount(2);
  const f = ui(page);
  await expect(f.continue).toBeDisabled();
  await cards.nth(1).check();
  const landed = page.waitForEvent('download');
  await f.continue.click();
  expect((await landed).suggestedFilename()).toBe('antivirus-installer.exe');
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
});

test('licences full: the devices, "Não" keeps them, "Sim" removes one and the download starts by itself', async ({
  page,
  request,
}) => {
  const phone = scenario('11910000003');
  const before = await toCodePanel(page, request, phone);
  await confirmCode(page, request, phone, before);
  await expect(page.getByRole('heading', { name: 'Todas as suas licenças estão em uso' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByTestId('licence-counter')).toHaveText('3/3');
  const cards = page.getByTestId('device-card');
  await expect(cards).toHaveCount(3);
  const card = cards.first();
  await expect(card.getByRole('heading', { level: 4 })).not.toBeEmpty();
  await expect(card.locator('dd').first()).toHaveText(/^\d{2} de [a-zç]+, \d{2}:\d{2}$/);
  await expect(card.locator('dd').nth(1)).toHaveText(/^\d{2} de (jan|fev|mar|abr|mai|jun|jul|ago|set|out|nov|dez) de \d{4}$/);

  await card.getByRole('button', { name: 'Desconectar dispositivo' }).click();
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await page.getByRole('button', { name: 'Não' }).click();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(cards).toHaveCount(3);

  await card.getByRole('button', { name: 'Desconectar dispositivo' }).click();
  const landed = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Sim' }).click();
  expect((await landed).suggestedFilename()).toBe('antivirus-installer.exe');
  await expect(page.getByRole('heading', { name: DONE })).toBeVisible();
});

test('a removal that fails keeps the devices and shows its snackbar, closed with Fechar', async ({ page, request }) => {
  const phone = scenario('11910000005');
  const before = await toCodePanel(page, request, phone);
  await confirmCode(page, request, phone, before);
  await expect(page.getByTestId('licence-counter')).toHaveText('2/2', { timeout: 15_000 });
  await page.getByTestId('device-card').first().getByRole('button', { name: 'Desconectar dispositivo' }).click();
  await page.getByRole('button', { name: 'Sim' }).click();
  const f = ui(page);
  await expect(f.snackbar).toHaveText(new RegExp(REMOVAL_FAILURE));
  await expect(page.getByTestId('device-card')).toHaveCount(2);
  await f.snackbar.getByRole('button', { name: 'Fechar' }).click();
  await expect(f.snackbar).toHaveCount(0);
});

test('a plan without the desktop antivirus says so', async ({ page, request }) => {
  const phone = scenario('11910000004');
  const before = await toCodePanel(page, request, phone);
  await confirmCode(page, request, phone, before);
  await expect(page.getByRole('heading', { name: 'Seu plano ainda não inclui o antivírus' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByText(/EXA Ultimate, Premium e Gratuito não incluem o antivírus/)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Falar com o atendimento' })).toHaveAttribute('href', '/contato');
});

for (const [national, what] of [
  ['11910000006', 'the partner list fails'],
  ['11910000007', 'the download URL call fails'],
] as const) {
  test(`${what}: the download error and the snackbar for 4 s, then "Tentar novamente"`, async ({ page, request }) => {
    const phone = scenario(national);
    const before = await toCodePanel(page, request, phone);
    await confirmCode(page, request, phone, before);
    await expect(page.getByRole('heading', { name: 'Falha ao iniciar o download' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Não foi possível completar a operação.')).toBeVisible();
    const f = ui(page);
    await expect(f.snackbar).toContainText(GENERIC_FAILURE);
    await expect(f.snackbar).toHaveCount(0, { timeout: 6_000 });
    await page.getByRole('button', { name: 'Tentar novamente' }).click();
    await expect(f.phone).toBeVisible();
    await expectSteps(page, 1);
  });
}

/** 11 digits as the field's mask shows them: `(47) 93862-2042`. */
const typedAs = (national: string) => `(${national.slice(0, 2)}) ${national.slice(2, 7)}-${national.slice(7)}`;

test('a phone outside the user collection: not found, then back to the phone', async ({ page, request }) => {
  const phone = freshPhone();
  const before = await toCodePanel(page, request, phone);
  await confirmCode(page, request, phone, before);
  await expect(page.getByRole('heading', { name: 'Usuário não encontrado' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('Não encontramos seu número de telefone na nossa base de usuários.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Falar com o atendimento' })).toBeVisible();
  await page.getByRole('button', { name: 'Tentar novamente' }).click();
  const f = ui(page);
  await expect(f.phone).toBeVisible();
  // The number typed stays, to correct rather than type again (issue 29).
  await expect(f.phone).toHaveValue(typedAs(phone.typed));
  await expectSteps(page, 1);
});

test('a wrong code shows the message and keeps Confirmar off until the code changes', async ({ page, request }) => {
  const phone = freshPhone();
  const before = await toCodePanel(page, request, phone);
  const code = await newCode(request, phone.msisdn, before);
  const f = ui(page);
  await f.code.fill(wrongCode(code));
  await f.confirm.click();
  await expect(page.getByText(INVALID_CODE)).toBeVisible({ timeout: 15_000 });
  await expect(f.confirm).toBeDisabled();
  await f.code.fill(code);
  await expect(page.getByText(INVALID_CODE)).toHaveCount(0);
  await f.confirm.click();
  // The right code goes on (this phone is not a user).
  await expect(page.getByRole('heading', { name: 'Usuário não encontrado' })).toBeVisible({ timeout: 15_000 });
});

test('the phone field: mask, hint, notes, and the invalid-number message', async ({ page }) => {
  await page.goto('/av-desktop/download/win_pc');
  const f = ui(page);
  await expect(page.getByText('Digite apenas números')).toBeVisible();
  await expect(page.getByText('Usaremos este número para enviar um código de segurança por SMS.')).toBeVisible();
  await expect(page.getByText('Se você tem um plano família, use o número do titular do plano.')).toBeVisible();
  await expect(f.continue).toBeDisabled();
  await f.phone.click();
  await f.phone.pressSequentially('11812345678');
  await expect(f.phone).toHaveValue('(11) 81234-5678');
  await expect(page.getByText('Número inválido. Verifique novamente.')).toBeVisible();
  await expect(f.continue).toBeDisabled();
  await f.phone.press('ControlOrMeta+a');
  await f.phone.press('Backspace');
  await f.phone.pressSequentially('11abc912345678');
  await expect(f.phone).toHaveValue('(11) 91234-5678');
  await expect(page.getByText('Número inválido. Verifique novamente.')).toHaveCount(0);
  await expect(f.continue).toBeEnabled();
});

test('"Alterar número" on the code step goes back to the phone, keeping it to correct', async ({ page, request }) => {
  const phone = freshPhone();
  await toCodePanel(page, request, phone);
  await page.getByRole('button', { name: 'Alterar número' }).click();
  await expect(page.getByLabel('Número de celular')).toHaveValue(typedAs(phone.typed));
  await expectSteps(page, 1);
});

test('an os other than win_pc or mac replaces the history with /seguranca', async ({ page }) => {
  await page.goto('/');
  await page.goto('/av-desktop/download/linux');
  await expect(page).toHaveURL(/\/seguranca$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
});
