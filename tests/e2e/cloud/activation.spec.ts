// The cloud serial activation as a visitor goes through it, against the orchestrator and the
// sandbox cloud functions (scripts/test.sh starts both; BASE_URL and SANDBOX_URL point at them).

import { expect, test } from '../fixtures';
import { banner, fillForm1, freshPhone, freshSerial, inbox, loader, PAGE, reachCodeForm, smsCode } from './helpers';

test('the happy path: form 1, SMS code, 5 s wait, success modal for 3 s, then /cliente/hero', async ({ page, request }) => {
  test.setTimeout(60_000);
  const { code } = await reachCodeForm(page, request, freshSerial());
  await page.getByLabel('Código recebido', { exact: true }).fill(code);
  // The page notes when the modal appears, so a slow test runner cannot shorten the measure.
  await page.evaluate(() => {
    const w = window as unknown as { modalShownAt?: number };
    new MutationObserver(() => {
      const dialog = [...document.querySelectorAll('[role="dialog"]')].find((d) => d.textContent?.includes('Número de série ativado!'));
      if (w.modalShownAt === undefined && dialog) w.modalShownAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Ativar' }).click();
  await expect(loader(page)).toBeVisible();

  const modal = page.getByRole('dialog', { name: 'Número de série ativado!' });
  // Validate, register, the 5 s wait, token, sign-in.
  await expect(modal).toBeVisible({ timeout: 20_000 });
  await expect(loader(page)).toHaveCount(0);
  await page.waitForURL('**/cliente/hero', { timeout: 10_000 });
  const shownFor = await page.evaluate(() => performance.now() - ((window as unknown as { modalShownAt: number }).modalShownAt));
  expect(shownFor).toBeGreaterThanOrEqual(2_900);
  await expect(page.getByRole('heading', { level: 1, name: 'Sua conta EXA Cloud está ativa!' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Acessar meu EXA Cloud' })).toHaveAttribute('href', 'https://cloud.exa.com.br');
});

test('a wrong code shows the server message in the red banner, stops the loader and closes with X', async ({ page, request }) => {
  const { code } = await reachCodeForm(page, request, freshSerial());
  const wrong = code === '000000' ? '111111' : '000000';
  await page.getByLabel('Código recebido', { exact: true }).fill(wrong);
  await page.getByRole('button', { name: 'Ativar' }).click();

  await expect(banner(page)).toHaveText('Código inválido. Tentativas restantes: 4.');
  // Red, as the spec asks: the three flows' one banner (components/flow/ErrorBanner).
  await expect(banner(page)).toHaveCSS('background-color', 'rgb(253, 236, 236)');
  await expect(loader(page)).toHaveCount(0);
  await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible();
  await banner(page).getByRole('button', { name: 'Fechar aviso de erro' }).click();
  await expect(banner(page)).toHaveCount(0);
});

test('a rejected serial shows the server message and returns to form 1', async ({ page, request }) => {
  const { code } = await reachCodeForm(page, request, 'SERIALINEXISTENTE');
  await page.getByLabel('Código recebido', { exact: true }).fill(code);
  // The page notes when the modal appears, so a slow test runner cannot shorten the measure.
  await page.evaluate(() => {
    const w = window as unknown as { modalShownAt?: number };
    new MutationObserver(() => {
      const dialog = [...document.querySelectorAll('[role="dialog"]')].find((d) => d.textContent?.includes('Número de série ativado!'));
      if (w.modalShownAt === undefined && dialog) w.modalShownAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Ativar' }).click();

  await expect(banner(page)).toHaveText(
    'Número de série não encontrado. Confira o número na etiqueta do seu computador.',
    { timeout: 15_000 },
  );
  await expect(loader(page)).toHaveCount(0);
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue('SERIALINEXISTENTE');
  await expect(page.getByRole('button', { name: 'Continuar' })).toBeEnabled();
});

test('the phone check runs before sending and its message shows on failure', async ({ page, request }) => {
  await page.goto(PAGE);
  await fillForm1(page, '(11) 94000-0001', freshSerial());

  await expect(banner(page)).toHaveText(
    'Este telefone não pode ativar o EXA Cloud. Verifique o número ou fale com o suporte.',
    { timeout: 15_000 },
  );
  await expect(loader(page)).toHaveCount(0);
  await expect(page.getByLabel('Código recebido', { exact: true })).toHaveCount(0);
  expect(await inbox(request, '5511940000001')).toEqual([]);
});

test('form 1 is checked before anything is sent', async ({ page }) => {
  await page.goto(PAGE);
  await expect(page.getByRole('heading', { level: 1, name: 'Ativar número de série' })).toBeVisible();
  await expect(page.getByLabel('Celular', { exact: true })).toHaveAttribute('placeholder', '(xx) xxxxx-xxxx');
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveAttribute('placeholder', /^Ex\.: /);

  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(banner(page)).toHaveText('Por favor, informe o número do seu celular.');
  const phone = freshPhone();
  await page.getByLabel('Celular', { exact: true }).pressSequentially(phone.typed.replace(/\D/g, ''));
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(banner(page)).toHaveText('Por favor, informe o número de série.');
  // An over-long serial is kept whole and refused with the limit, never cut (issue 29).
  await page.getByLabel('Número de série', { exact: true }).fill('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue('ABCDEFGHIJKLMNOPQRSTUVWXYZ');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(banner(page)).toHaveText('O número de série deve ter no máximo 21 caracteres.');
});

test("after a successful resend 'Reenviar código' hides while 'Reenviando em N segundos...' counts down from 10", async ({
  page,
  request,
}) => {
  const { phone } = await reachCodeForm(page, request, freshSerial());
  const link = page.getByRole('button', { name: 'Reenviar código' });
  // The page writes down every count it shows: sampling a one-second text from the test could
  // miss one on a slow machine.
  await page.evaluate(() => {
    const w = window as unknown as { countsShown: string[] };
    w.countsShown = [];
    new MutationObserver(() => {
      const shown = document.body.innerText.match(/Reenviando em \d+ segundos?\.\.\./)?.[0];
      if (shown && shown !== w.countsShown.at(-1)) w.countsShown.push(shown);
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  });
  await link.click();

  await expect(page.getByText('Reenviando em 10 segundos...')).toBeVisible();
  await expect(link).toHaveCount(0);
  await expect(link).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(/Reenviando em/)).toHaveCount(0);
  const countsShown = await page.evaluate(() => (window as unknown as { countsShown: string[] }).countsShown);
  expect(countsShown).toEqual([
    ...[10, 9, 8, 7, 6, 5, 4, 3, 2].map((n) => `Reenviando em ${n} segundos...`),
    'Reenviando em 1 segundo...',
  ]);
  await expect.poll(async () => (await inbox(request, phone.msisdn)).length).toBe(2);

  // The newest code activates.
  const code = await smsCode(request, phone.msisdn, 2);
  await page.getByLabel('Código recebido', { exact: true }).fill(code);
  // The page notes when the modal appears, so a slow test runner cannot shorten the measure.
  await page.evaluate(() => {
    const w = window as unknown as { modalShownAt?: number };
    new MutationObserver(() => {
      const dialog = [...document.querySelectorAll('[role="dialog"]')].find((d) => d.textContent?.includes('Número de série ativado!'));
      if (w.modalShownAt === undefined && dialog) w.modalShownAt = performance.now();
    }).observe(document.body, { childList: true, subtree: true });
  });
  await page.getByRole('button', { name: 'Ativar' }).click();
  await expect(page.getByRole('dialog', { name: 'Número de série ativado!' })).toBeVisible({ timeout: 20_000 });
});

test('the back button returns to form 1 with what was typed', async ({ page, request }) => {
  const serial = freshSerial();
  const { phone } = await reachCodeForm(page, request, serial);
  await page.getByRole('button', { name: 'Voltar' }).click();

  await expect(page.getByRole('button', { name: 'Continuar' })).toBeVisible();
  await expect(page.getByLabel('Código recebido', { exact: true })).toHaveCount(0);
  await expect(page.getByLabel('Celular', { exact: true })).toHaveValue(phone.typed);
  await expect(page.getByLabel('Número de série', { exact: true })).toHaveValue(serial);

  // Sending form 1 again sends a new code.
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByLabel('Código recebido', { exact: true })).toBeVisible({ timeout: 15_000 });
  await smsCode(request, phone.msisdn, 2);
});
