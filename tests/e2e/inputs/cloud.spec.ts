import { expect, test } from '../fixtures';
import { banner, fillForm1, freshPhone, freshSerial, inbox, PAGE, reachCodeForm } from '../cloud/helpers';
import { paste, PASTED_PHONES } from './paste';

// Issue 29 on /cloud/positivo, on a 375 px phone.

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

const phoneField = (page: import('@playwright/test').Page) => page.getByLabel('Celular', { exact: true });
const serialField = (page: import('@playwright/test').Page) => page.getByLabel('Número de série', { exact: true });

for (const pasted of PASTED_PHONES) {
  test(`a phone pasted as "${pasted}" is the national number`, async ({ page }) => {
    await page.goto(PAGE);
    await paste(page, phoneField(page), pasted);
    await expect(phoneField(page)).toHaveValue('(11) 91000-0001');
  });
}

test('a 34-character serial is kept whole and refused, never cut and registered', async ({ page, request }) => {
  await page.goto(PAGE);
  const phone = freshPhone();
  const long = 'PS2401BR535254-0000-1-2222-333344';
  await phoneField(page).click();
  await phoneField(page).pressSequentially(phone.typed.replace(/\D/g, ''));
  await paste(page, serialField(page), long);
  await expect(serialField(page)).toHaveValue(long);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(banner(page)).toHaveText('O número de série deve ter no máximo 21 caracteres.');
  expect(await inbox(request, phone.msisdn)).toEqual([]);
});

test('a serial pasted with spaces and in small letters is tidied before it is sent', async ({ page, request }) => {
  const serial = freshSerial('ps');
  const spaced = ` ${serial.slice(0, 6).toLowerCase()} ${serial.slice(6).toLowerCase()} `;
  const { phone } = await reachCodeForm(page, request, spaced);
  // The code went out: the server took the tidied serial (a spaced one fails its own check).
  expect((await inbox(request, phone.msisdn)).length).toBe(1);
});

test('an area code that does not exist gets the invalid-number message', async ({ page }) => {
  await page.goto(PAGE);
  await fillForm1(page, '(00) 91000-0001', freshSerial());
  await expect(banner(page)).toHaveText('Por favor, digite um numero de celular válido!');
});

test('wrong codes to the end: no more codes are sent and the panel says what to do next', async ({ page, request }) => {
  const { phone, code } = await reachCodeForm(page, request, freshSerial());
  const field = page.getByLabel('Código recebido', { exact: true });
  for (let i = 0; i < 6; i += 1) {
    await field.fill(String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    await page.getByRole('button', { name: 'Ativar' }).click();
    await expect(banner(page)).toBeVisible();
    if (await page.getByRole('heading', { name: 'Não enviamos mais códigos nesta tentativa' }).isVisible()) break;
    await page.getByRole('button', { name: 'Fechar aviso de erro' }).click();
  }
  await expect(page.getByRole('heading', { name: 'Não enviamos mais códigos nesta tentativa' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar código' })).toHaveCount(0);
  const sent = (await inbox(request, phone.msisdn)).length;
  await page.getByRole('button', { name: 'Começar de novo' }).click();
  await expect(phoneField(page)).toHaveValue(phone.typed);
  expect((await inbox(request, phone.msisdn)).length).toBe(sent);
});

test('the step indicator keeps each step on one line at 375 px', async ({ page }) => {
  await page.goto(PAGE);
  const steps = page.getByRole('list', { name: 'Etapas da ativação' }).getByRole('listitem');
  await expect(steps).toHaveCount(3);
  const tops = await steps.evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
  expect(new Set(tops).size, 'the three steps share one row').toBe(1);
  const label = await steps.nth(2).evaluate((item) => {
    const range = document.createRange();
    range.selectNodeContents(item.lastChild as Node);
    return range.getClientRects().length;
  });
  expect(label, '"Ativação" on one line').toBe(1);
});

test('/cliente/hero opened directly does not claim an active account', async ({ page }) => {
  await page.goto('/cliente/hero');
  await expect(page.getByRole('heading', { level: 1, name: 'Área do cliente EXA Cloud' })).toBeVisible();
  await expect(page.getByText('Sua conta EXA Cloud está ativa!')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Ative o número de série' })).toHaveAttribute('href', '/cloud/positivo');
});
