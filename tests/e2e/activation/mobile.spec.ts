import { expect, test } from '../fixtures';
import { activate, codeFor, expectCodePanel, fields, freshPhone, typeInto, uniqueLicence } from './support';

// Spec section 2: on a phone the store redirect and the product buttons go to the stores
// (external hosts answer with the fixture's stub page).

test.describe('Android', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36',
    viewport: { width: 390, height: 844 },
  });

  test('after 3 s the visitor goes to Google Play', async ({ page, request }) => {
    const phone = freshPhone();
    const f = fields(page);
    await page.goto('/seguranca/ativar');
    await typeInto(f.phone, phone.typed);
    await f.licence.fill(uniqueLicence());
    await page.getByRole('button', { name: 'Validar' }).click();
    await expectCodePanel(page, phone.masked);
    await activate(page, await codeFor(request, phone.msisdn));
    await expect(page.getByText('Aguarde um instante enquanto te direcionamos ...')).toBeVisible();
    await page.waitForURL('https://play.google.com/store/apps/details?id=br.com.exa.seguranca', { timeout: 10_000 });
  });
});

test.describe('iPhone', () => {
  test.use({
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    viewport: { width: 390, height: 844 },
  });

  test('the product buttons open the App Store', async ({ page, request }) => {
    const phone = freshPhone();
    const f = fields(page);
    await page.goto('/seguranca/tim');
    await typeInto(f.phone, phone.typed);
    await typeInto(f.cpfCnpj, '11222333000181');
    await page.getByRole('button', { name: 'Continuar' }).click();
    await expectCodePanel(page, phone.masked);
    await activate(page, await codeFor(request, phone.msisdn));
    const cloud = page.getByRole('link', { name: 'Baixar EXA Cloud' });
    await expect(cloud).toHaveAttribute('href', 'https://apps.apple.com/br/app/exa-cloud/id1500000002');
    await expect(cloud).not.toHaveAttribute('target', '_blank');
    await expect(page.getByRole('link', { name: 'Baixar Gestão Digital' })).toHaveAttribute(
      'href',
      'https://apps.apple.com/br/app/exa-gestao-digital/id1500000003',
    );
  });
});
