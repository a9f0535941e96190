import { expect, test } from '../fixtures';
import { clear, codeFor, expectCodePanel, fields, freshPhone, typeInto, uniqueLicence } from './support';

// Spec section 5, "Activation": every message, in the banner, on submit; typing clears it;
// the masks' maximum lengths.

test('phone: an invalid number', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  for (const typed of ['1098765432', '10987654321', '11587654321']) {
    await clear(f.phone);
    await typeInto(f.phone, typed);
    await f.licence.fill('EXA-1');
    await page.getByRole('button', { name: 'Validar' }).click();
    await expect(f.banner).toHaveText('Por favor, digite um numero de celular válido!');
    await expect(f.phone).toHaveAttribute('aria-invalid', 'true');
  }
  // Typing clears the error.
  await f.phone.press('End');
  await f.phone.press('Backspace');
  await expect(f.phone).toHaveValue('(11) 58765-432');
  await expect(f.banner).toHaveCount(0);
});

test('phone mask: (DD) NNNNN-NNNN, 15 characters at most', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, '119876543219999');
  await expect(f.phone).toHaveValue('(11) 98765-4321');
});

test('licence: required, 21 characters at most (a longer one kept whole and refused)', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, freshPhone().typed);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText('Por favor, informe o código recebido!');
  await f.licence.fill('A'.repeat(30));
  await expect(f.licence).toHaveValue('A'.repeat(30));
  await expect(f.banner).toHaveCount(0);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText('O código de licença deve ter no máximo 21 caracteres. Confira o código recebido.');
});

test('licence locked by ?licenca= on the standard page', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativar?licenca=LINK-0001');
  await expect(f.licence).toHaveValue('LINK-0001');
  await expect(f.licence).toBeDisabled();
});

test('CPF/CNPJ: lengths, repeated digits and check digits', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await typeInto(f.phone, freshPhone().typed);
  const cases: [string, string][] = [
    ['1234567890', 'Por favor, digite um número de CPF/CNPJ válido!'],
    ['529982247251', 'Por favor, digite um número de CPF/CNPJ válido!'],
    ['1122233300018', 'Por favor, digite um número de CPF/CNPJ válido!'],
    ['11111111111', 'Por favor, digite um número de CPF válido!'],
    ['52998224726', 'Por favor, digite um número de CPF válido!'],
    ['11111111111111', 'Por favor, digite um número de CNPJ válido!'],
    ['11222333000182', 'Por favor, digite um número de CNPJ válido!'],
    ['12ABC34501DE36', 'Por favor, digite um número de CNPJ válido!'],
  ];
  for (const [typed, message] of cases) {
    await clear(f.cpfCnpj);
    await typeInto(f.cpfCnpj, typed);
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expect(f.banner, typed).toHaveText(message);
  }
  // The mask stops at 18 characters.
  await clear(f.cpfCnpj);
  await typeInto(f.cpfCnpj, '112223330001819999');
  await expect(f.cpfCnpj).toHaveValue('11.222.333/0001-81');
});

test('e-mail panel: an invalid e-mail', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativaragility');
  await typeInto(f.phone, freshPhone().typed);
  await f.email.fill('ana@exemplo');
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText('Por favor, digite um e-mail válido!');
});

test('code panel: Ativar waits for 6 digits and the terms', async ({ page, request }) => {
  const phone = freshPhone();
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  const code = await codeFor(request, phone.msisdn);
  await expect(f.activate).toBeDisabled();
  await f.pincode.fill(code.slice(0, 5));
  await f.terms.check();
  await expect(f.activate).toBeDisabled();
  await f.pincode.fill(code);
  await expect(f.activate).toBeEnabled();
  await f.terms.uncheck();
  await expect(f.activate).toBeDisabled();
});
