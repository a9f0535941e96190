import { expect, test } from '../fixtures';
import { activate, codeFor, expectCodePanel, fields, freshPhone, typeInto, uniqueLicence, wrongCode } from './support';
import type { Page } from '@playwright/test';

// The spec's section 8 messages as a visitor meets them, each in the dismissible banner.

// A wrong code is a typo (the verification service answers a 4xx other than 403): the visitor
// is asked to check the message, not sent to request a new code. 403 (expired or used) is in
// expired.clock.spec.ts.
const CODE_WRONG = 'Código incorreto, verifique a mensagem enviada e tente novamente!';

async function toCodePanel(page: Page, phone = freshPhone(), licence = uniqueLicence()) {
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, phone.typed);
  await f.licence.fill(licence);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expectCodePanel(page, phone.masked);
  return phone;
}

test('a wrong code asks to check the message, and the banner closes with its X', async ({ page, request }) => {
  const f = fields(page);
  const phone = await toCodePanel(page);
  await activate(page, wrongCode(await codeFor(request, phone.msisdn)));
  await expect(f.banner).toHaveText(CODE_WRONG);
  await page.getByRole('button', { name: 'Fechar aviso de erro' }).click();
  await expect(f.banner).toHaveCount(0);
});

test('five wrong codes, then the maximum-attempts message with its contact link', async ({ page, request }) => {
  test.setTimeout(60_000);
  const f = fields(page);
  const phone = await toCodePanel(page);
  const code = await codeFor(request, phone.msisdn);
  for (let i = 0; i < 5; i += 1) {
    await activate(page, wrongCode(code));
    await expect(f.banner).toHaveText(CODE_WRONG);
  }
  await activate(page, code);
  await expect(f.banner).toHaveText('Máximo de tentativas excedido. Clique aqui para falar conosco!');
  await expect(f.banner.getByRole('link', { name: 'aqui' })).toHaveAttribute('href', '/contato');
});

test('serial not found returns to the form with its message', async ({ page, request }) => {
  const f = fields(page);
  const phone = await toCodePanel(page, freshPhone(), 'SERIALINEXISTENTE');
  await activate(page, await codeFor(request, phone.msisdn));
  await expect(f.banner).toHaveText('Ops, esse serial não foi encontrado. Clique aqui para falar conosco!');
  await expect(f.licence).toBeVisible();
});

test('sending the code fails: the generic message', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativar');
  await typeInto(f.phone, '11920000001');
  await f.licence.fill(uniqueLicence());
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText('Ops, ocorreu um erro. Clique aqui para falar conosco!');
});

test('carrier: authorize refused after the code', async ({ page, request }) => {
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await typeInto(f.phone, '11920000002');
  await typeInto(f.cpfCnpj, '52998224725');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expectCodePanel(page, '(11) 92000-0002');
  await activate(page, await codeFor(request, '5511920000002'));
  await expect(f.banner).toHaveText('Ops, você não tem esse produto cadastrado. Clique aqui para falar conosco!');
});

test('carrier: a CPF without a plan is refused before any code', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/tim');
  await typeInto(f.phone, freshPhone().typed);
  await typeInto(f.cpfCnpj, '11144477735');
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(f.banner).toHaveText('Ops, você não tem esse produto cadastrado. Clique aqui para falar conosco!');
});

test('broadband: a return the portal did not start (a forged code and state) is refused', async ({ page }) => {
  await page.goto('/seguranca/ativarbrisanet?code=SEMCOBERTURA&state=forjado');
  await expect(fields(page).banner).toHaveText(
    'Não identificamos disponibilidade do EXA Segurança para esta assinatura. Por favor entre em contato com a central de atendimento ligando 0800 281 5500.',
  );
  await expect(page.getByRole('link', { name: 'Clique aqui para ativar a proteção EXA Segurança' })).toBeVisible();
});

test('broadband: the consent page sends back a customer without coverage', async ({ page }) => {
  await page.goto('/seguranca/ativarbrisanet');
  await page.getByRole('link', { name: 'Clique aqui para ativar a proteção EXA Segurança' }).click();
  await page.getByRole('button', { name: 'Continuar como cliente sem cobertura' }).click();
  await expect(fields(page).banner).toContainText('Não identificamos disponibilidade do EXA Segurança para esta assinatura.');
});

test('telecom: the partner login refuses an e-mail without subscription', async ({ page }) => {
  const f = fields(page);
  await page.goto('/seguranca/ativaragility');
  await typeInto(f.phone, freshPhone().typed);
  await f.email.fill('ana@sem-assinatura.test');
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(f.banner).toHaveText(
    'Não foi possível ativar o EXA Segurança porque não identificamos a sua assinatura. Fale com a Agility pelo telefone 0800 591 0800 ou pelo WhatsApp (11) 99114-0800.',
  );
  await expect(f.email).toBeVisible();
});
