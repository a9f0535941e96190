// What /cloud/positivo offers around the form: help panel, FAQ, chatbot buttons, the phone
// tip, and its noindex tag.

import { expect, test } from '../fixtures';
import { PAGE } from './helpers';

test('the help panel opens with its mask, shows the label drawing and closes by the mask or X', async ({ page }) => {
  await page.goto(PAGE);
  const panel = page.getByRole('dialog', { name: 'Onde encontro o número de série?' });
  const mask = page.getByTestId('help-mask');
  await expect(panel).toHaveCount(0);

  await page.getByRole('button', { name: 'Onde encontro o número de série?' }).click();
  await expect(panel).toBeVisible();
  await expect(mask).toBeVisible();
  await expect(panel.getByRole('img', { name: /etiqueta do computador com o número de série/i })).toBeVisible();
  await expect(panel.getByTestId('help-video')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Fechar ajuda' })).toBeFocused();
  await mask.click({ position: { x: 10, y: 10 } });
  await expect(panel).toHaveCount(0);
  await expect(mask).toHaveCount(0);

  await page.getByRole('button', { name: 'Ver exemplo da etiqueta' }).click();
  await expect(panel).toBeVisible();
  await panel.getByRole('button', { name: 'Fechar ajuda' }).click();
  await expect(panel).toHaveCount(0);
});

test("'OBTER AJUDA DO SUPORTE' and 'Precisa de ajuda?' open the chatbot", async ({ page }) => {
  await page.goto(PAGE);
  const chat = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });

  await page.getByRole('button', { name: 'Onde encontro o número de série?' }).click();
  await page.getByRole('button', { name: 'OBTER AJUDA DO SUPORTE' }).click();
  await expect(chat).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Onde encontro o número de série?' })).toHaveCount(0);
  await chat.getByRole('button', { name: 'Fechar' }).click();
  await expect(chat).toHaveCount(0);

  await page.getByRole('button', { name: 'Precisa de ajuda?' }).click();
  await expect(chat).toBeVisible();
});

test("the FAQ shows a few questions, all with 'Exibir todos', fewer again with 'Exibir menos'", async ({ page }) => {
  await page.goto(PAGE);
  const questions = page.locator('#cloud-faq-list > li');
  await expect(questions).toHaveCount(3);
  await page.getByRole('button', { name: 'Exibir todos' }).click();
  await expect(questions).toHaveCount(6);
  await expect(page.getByRole('button', { name: 'Exibir menos' })).toBeVisible();

  const question = page.getByRole('button', { name: 'Meu código não funcionou. O que faço?' });
  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/solicite um novo com "Reenviar código"/)).toBeVisible();

  await page.getByRole('button', { name: 'Exibir menos' }).click();
  await expect(questions).toHaveCount(3);
  await expect(page.getByRole('button', { name: 'Exibir todos' })).toBeVisible();
});

test('the phone info tip hides after 9 s', async ({ page }, testInfo) => {
  // A controlled clock, and a plain navigation: the audit that follows page.goto takes
  // seconds of the 9 under load (the page is audited at the end of this test anyway).
  await page.clock.install();
  // The page's clock runs with the wall clock until it is paused: the tip's 9 s start after this.
  const asked = Date.now();
  await page.evaluate((url) => window.location.assign(url), new URL(PAGE, testInfo.project.use.baseURL).toString());
  const tip = page.getByTestId('phone-tip');
  await expect(tip).toBeVisible();
  await expect(tip).toHaveText('Informe o celular com DDD. Enviaremos um código de 6 dígitos por SMS para este número.');
  // ... and before this: the tip hides somewhere in [asked + 9 s, seen + 9 s].
  const seen = await page.evaluate(() => Date.now());
  // From here only the test moves time. The pause must be ahead of the page's clock, which
  // moves on while the call travels (by seconds under load): a little ahead, or again.
  let pausedAt = 0;
  for (let tries = 0; !pausedAt; tries += 1) {
    const at = (await page.evaluate(() => Date.now())) + 500;
    await page.clock.pauseAt(at).then(
      () => (pausedAt = at),
      (error: Error) => {
        if (tries === 9 || !/past/.test(error.message)) throw error;
      },
    );
  }
  expect(pausedAt, 'the page took 9 s to show the tip').toBeLessThan(asked + 8_900);
  await page.clock.runFor(asked + 8_900 - pausedAt);
  await expect(tip).toBeVisible();
  await page.clock.runFor(seen + 9_100 - (asked + 8_900));
  await expect(tip).toHaveCount(0);
  // The closing accessibility audit needs time to flow again.
  await page.clock.resume();
});

test('the page is noindex and titled', async ({ page }) => {
  await page.goto(PAGE);
  await expect(page).toHaveTitle(/Ativar número de série/);
  const robots = page.locator('meta[name="robots"]');
  await expect(robots).not.toHaveCount(0);
  for (const content of await robots.evaluateAll((tags) => tags.map((t) => t.getAttribute('content')))) {
    expect(content).toContain('noindex');
  }
});
