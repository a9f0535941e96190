import { expect, test } from '../fixtures';
import { codeFor, expectCodePanel, fields, freshPhone, sms, uniqueLicence, wrongCode } from '../activation/support';
import { paste, PASTED_PHONES } from './paste';

// Issue 29 on /seguranca/ativar and the partner page, on a 375 px phone: pasted phones and
// licences are read right, the partner link without a licence is no dead end, and wrong codes
// to the end send no more codes.

test.use({ viewport: { width: 375, height: 812 } });
test.describe.configure({ timeout: 60_000 });

for (const pasted of PASTED_PHONES) {
  test(`a phone pasted as "${pasted}" is the national number`, async ({ page }) => {
    await page.goto('/seguranca/ativar');
    await paste(page, fields(page).phone, pasted);
    await expect(fields(page).phone).toHaveValue('(11) 91000-0001');
  });
}

test('an over-long licence is kept whole and refused with the limit; a spaced one is tidied', async ({ page, request }) => {
  await page.goto('/seguranca/ativar');
  const f = fields(page);
  const phone = freshPhone();
  await f.phone.click();
  await f.phone.pressSequentially(phone.typed);
  const long = 'EXA-2026-ABCD-0000-1111-2222-3333';
  await paste(page, f.licence, long);
  await expect(f.licence).toHaveValue(long);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText('O código de licença deve ter no máximo 21 caracteres. Confira o código recebido.');
  expect(await sms(request, phone.msisdn)).toEqual([]);
  await f.licence.fill(`  ${uniqueLicence('e x')}  `);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
});

test('"Alterar número" keeps the phone and the licence', async ({ page, request }) => {
  await page.goto('/seguranca/ativar');
  const f = fields(page);
  const phone = freshPhone();
  const licence = uniqueLicence();
  await f.phone.click();
  await f.phone.pressSequentially(phone.typed);
  await f.licence.fill(licence);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  await codeFor(request, phone.msisdn);
  await page.getByRole('button', { name: 'Alterar número' }).click();
  const t = phone.typed;
  await expect(f.phone).toHaveValue(`(${t.slice(0, 2)}) ${t.slice(2, 7)}-${t.slice(7)}`);
  await expect(f.licence).toHaveValue(licence);
});

test('the CPF/CNPJ field with letters answers with the CNPJ message', async ({ page }) => {
  await page.goto('/seguranca/tim');
  const f = fields(page);
  await f.phone.click();
  await f.phone.pressSequentially(freshPhone().typed);
  await f.cpfCnpj.click();
  await f.cpfCnpj.pressSequentially('12abc345');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(f.banner).toHaveText('Por favor, digite um número de CNPJ válido!');
});

for (const search of ['', '?licenca=', `?licenca=${'X'.repeat(30)}`]) {
  test(`/seguranca/ativarsumicity${search}: the link is said to be incomplete, with where to get the right one`, async ({
    page,
  }) => {
    await page.goto(`/seguranca/ativarsumicity${search}`);
    await expect(page.getByRole('heading', { level: 1, name: 'O link de ativação está incompleto' })).toBeVisible();
    await expect(page.getByText(/área do cliente Sumicity ou peça o link correto ao atendimento Sumicity/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Fale com a EXA' })).toHaveAttribute('href', '/contato');
    // No locked empty field asking to be filled, and no untrue hint.
    await expect(fields(page).licence).toHaveCount(0);
    await expect(page.getByText('Já veio preenchido pelo link do seu provedor', { exact: false })).toHaveCount(0);
  });
}

test('/seguranca/ativarsumicity with a licence keeps the locked field and its hint', async ({ page }) => {
  await page.goto('/seguranca/ativarsumicity?licenca=SUMI-29');
  await expect(fields(page).licence).toHaveValue('SUMI-29');
  await expect(fields(page).licence).toBeDisabled();
  await expect(page.getByText(/Já veio preenchido pelo link do seu provedor/)).toBeVisible();
});

test('wrong codes to the end: no more codes are sent and the panel says what to do next', async ({ page, request }) => {
  await page.goto('/seguranca/ativar');
  const f = fields(page);
  const phone = freshPhone();
  await f.phone.click();
  await f.phone.pressSequentially(phone.typed);
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  const code = await codeFor(request, phone.msisdn);
  await f.terms.check();
  // Five wrong codes are checked upstream; the sixth try is refused by the server's limit.
  for (let i = 0; i < 6; i += 1) {
    await f.pincode.fill(wrongCode(String((Number(code) + i) % 1_000_000).padStart(6, '0')));
    await expect(f.banner).toHaveCount(0);
    await f.activate.click();
    await expect(f.banner).toContainText(
      i < 5 ? 'Código incorreto, verifique a mensagem enviada e tente novamente!' : 'Máximo de tentativas excedido.',
    );
  }
  await expect(page.getByRole('heading', { name: 'Não enviamos mais códigos nesta tentativa' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Reenviar código' })).toHaveCount(0);
  await expect(f.pincode).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Falar com o atendimento' })).toHaveAttribute('href', '/contato');
  const sent = (await sms(request, phone.msisdn)).length;
  await page.getByRole('button', { name: 'Começar de novo' }).click();
  await expect(f.phone).not.toHaveValue('');
  expect((await sms(request, phone.msisdn)).length).toBe(sent);
});
