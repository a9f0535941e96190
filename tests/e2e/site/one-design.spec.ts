import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Locator, Page, Route, TestInfo } from '@playwright/test';
import { expect, test } from '../fixtures';
import { codeFor, freshPhone as activationPhone, uniqueLicence } from '../activation/support';
import { freshPhone as cloudPhone, freshSerial, smsCode } from '../cloud/helpers';
import { freshPhone as downloadPhone, inboxSize, newCode } from '../download/support';

// Issue 18, finding 7: the three flows share one set of form parts (web/src/components/flow):
// the same phone field (mask and placeholder), code field, red error banner, 'Alterar número'
// on each code step, and a button that says what is happening while its call runs. Screenshots
// of the states go to test-results/screenshots/flows/.

const FLOWS = {
  activation: { path: '/seguranca/ativar', phone: 'Número do celular', submit: 'Validar' },
  cloud: { path: '/cloud/positivo', phone: 'Celular', submit: 'Continuar' },
  download: { path: '/av-desktop/download/win_pc', phone: 'Número de celular', submit: 'Continuar' },
} as const;

const BANNER_RED = 'rgb(253, 236, 236)';

/** The computed look of a control: what "one design" means, measured. */
async function looks(locator: Locator) {
  return locator.evaluate((el) => {
    const s = getComputedStyle(el);
    return {
      height: el.getBoundingClientRect().height,
      border: `${s.borderTopWidth} ${s.borderTopStyle} ${s.borderTopColor}`,
      radius: s.borderTopLeftRadius,
      font: `${s.fontFamily.split(',')[0]} ${s.fontSize} ${s.fontWeight}`,
      background: s.backgroundColor,
    };
  });
}

async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const file = join(testInfo.project.outputDir, 'screenshots', 'flows', `${name}-${page.viewportSize()?.width}.png`);
  mkdirSync(dirname(file), { recursive: true });
  // From the top: a full-page shot taken while scrolled draws the sticky header mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}

/** Holds every command of the attempt for `ms`, so the busy state can be seen. */
// Holds the browser's commands, and the cloud flow's start (its "Continuar" starts the attempt),
// long enough for the busy button to be seen however fast the server answers.
async function slowCommands(page: Page, ms: number) {
  const slow = async (route: Route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  };
  await page.route('**/api/attempts/*/commands', slow);
  await page.route('**/api/attempts', slow);
}

for (const width of [375, 1280]) {
  test.describe(`${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 812 : 800 } });

    test('one phone field: same placeholder, mask and look in the three flows', async ({ page }, testInfo) => {
      const seen = [];
      for (const [name, flow] of Object.entries(FLOWS)) {
        await page.goto(flow.path);
        const field = page.getByLabel(flow.phone, { exact: true });
        await expect(field).toHaveAttribute('placeholder', '(xx) xxxxx-xxxx');
        await expect(field).toHaveAttribute('inputmode', 'tel');
        await field.click();
        await field.pressSequentially('11987654321');
        await expect(field).toHaveValue('(11) 98765-4321');
        seen.push(await looks(field));
        const button = page.getByRole('button', { name: flow.submit });
        await expect(button).toBeEnabled();
        await shoot(page, testInfo, `${name}-phone`);
      }
      expect(seen[1]).toEqual(seen[0]);
      expect(seen[2]).toEqual(seen[0]);
      expect(seen[0].font).toMatch(/^"?Inter Variable"? /);
    });

    test('one red error banner with its X in the three flows', async ({ page }, testInfo) => {
      const banners = [];
      // Activation: an invalid phone on submit (spec section 5).
      await page.goto(FLOWS.activation.path);
      await page.getByLabel(FLOWS.activation.phone).pressSequentially('1098765432');
      await page.getByLabel('Código de licença').fill('EXA-1');
      await page.getByRole('button', { name: 'Validar' }).click();
      await expect(page.getByRole('alert')).toHaveText('Por favor, digite um numero de celular válido!');
      banners.push(await looks(page.getByRole('alert')));
      await shoot(page, testInfo, 'activation-error');

      // Cloud: nothing typed.
      await page.goto(FLOWS.cloud.path);
      await page.getByRole('button', { name: 'Continuar' }).click();
      await expect(page.getByRole('alert')).toHaveText('Por favor, informe o número do seu celular.');
      banners.push(await looks(page.getByRole('alert')));
      await shoot(page, testInfo, 'cloud-error');

      // Download: 11 digits that are not a mobile number (spec section 5).
      await page.goto(FLOWS.download.path);
      await page.getByLabel(FLOWS.download.phone).pressSequentially('11887654321');
      const banner = page.getByRole('alert');
      await expect(banner).toHaveText('Número inválido. Verifique novamente.');
      await expect(page.getByLabel(FLOWS.download.phone)).toHaveAttribute('aria-invalid', 'true');
      banners.push(await looks(banner));
      await shoot(page, testInfo, 'download-error');
      await banner.getByRole('button', { name: 'Fechar aviso de erro' }).click();
      await expect(banner).toHaveCount(0);

      for (const look of banners) {
        expect(look.background).toBe(BANNER_RED);
        expect(look.border).toBe(banners[0].border);
        expect(look.radius).toBe(banners[0].radius);
      }
    });
  });
}

test('each code step: the same code field, "Alterar número" and a button that says what it is doing', async ({ page, request }, testInfo) => {
  test.setTimeout(90_000);
  const codeFields = [];

  // Activation
  const a = activationPhone();
  await page.goto(FLOWS.activation.path);
  await page.getByLabel(FLOWS.activation.phone).pressSequentially(a.typed);
  await page.getByLabel('Código de licença').fill(uniqueLicence());
  await slowCommands(page, 1500);
  await page.getByRole('button', { name: 'Validar' }).click();
  await expect(page.getByRole('button', { name: 'Enviando código…' })).toBeDisabled();
  const aCode = page.getByLabel('Código recebido por SMS');
  await expect(aCode).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Alterar número' })).toBeVisible();
  await aCode.fill(await codeFor(request, a.msisdn));
  await page.getByRole('checkbox', { name: 'Li e concordo com os Termos de uso e Privacidade' }).check();
  codeFields.push(await looks(aCode));
  await shoot(page, testInfo, 'activation-code');
  await page.getByRole('button', { name: 'Ativar' }).click();
  await expect(page.getByRole('button', { name: 'Ativando…' })).toBeVisible();
  await shoot(page, testInfo, 'activation-busy');
  await expect(page.getByRole('heading', { name: 'Pronto! Seu EXA Segurança está ativado.' })).toBeVisible({ timeout: 20_000 });
  await page.unrouteAll({ behavior: 'wait' });

  // Cloud
  const c = cloudPhone();
  await page.goto(FLOWS.cloud.path);
  await page.getByLabel(FLOWS.cloud.phone, { exact: true }).pressSequentially(c.typed.replace(/\D/g, ''));
  await page.getByLabel('Número de série', { exact: true }).fill(freshSerial());
  await slowCommands(page, 1500);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('button', { name: 'Enviando código…' })).toBeDisabled();
  const cCode = page.getByLabel('Código recebido', { exact: true });
  await expect(cCode).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Alterar número' })).toBeVisible();
  codeFields.push(await looks(cCode));
  await page.unrouteAll({ behavior: 'wait' });
  await cCode.fill(await smsCode(request, c.msisdn));
  await shoot(page, testInfo, 'cloud-code');
  await page.getByRole('button', { name: 'Ativar' }).click();
  // The server registers the serial and waits 5 s before signing in: the button and one line say so.
  await expect(page.getByRole('button', { name: 'Ativando…' })).toBeVisible();
  await expect(page.getByText(/Finalizando a ativação da sua conta/)).toBeVisible({ timeout: 10_000 });
  await shoot(page, testInfo, 'cloud-busy');
  await expect(page.getByRole('heading', { name: 'Número de série ativado!' })).toBeVisible({ timeout: 20_000 });

  // Download
  const d = downloadPhone();
  await page.goto(FLOWS.download.path);
  const before = await inboxSize(request, d.msisdn);
  await page.getByLabel(FLOWS.download.phone).pressSequentially(d.typed);
  await slowCommands(page, 1500);
  await page.getByRole('button', { name: 'Continuar' }).click();
  await expect(page.getByRole('button', { name: 'Enviando código…' })).toBeDisabled();
  const dCode = page.getByLabel('Código de verificação');
  await expect(dCode).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Alterar número' })).toBeVisible();
  codeFields.push(await looks(dCode));
  await dCode.fill(await newCode(request, d.msisdn, before));
  await shoot(page, testInfo, 'download-code');
  await page.getByRole('button', { name: 'Confirmar' }).click();
  await expect(page.getByRole('button', { name: 'Verificando código…' })).toBeVisible();
  await page.unrouteAll({ behavior: 'wait' });

  for (const look of codeFields) expect(look).toEqual(codeFields[0]);
});
