import { expect, test } from '../fixtures';

const GROUPS = ['EXA', 'EXA Segurança', 'EXA Cloud', 'Gestão Digital'];

test('the four groups start with only the first open, and the first question of the first two groups open', async ({
  page,
}) => {
  await page.goto('/faq');
  const groupToggles = page.locator('.faq-group__toggle');
  await expect(groupToggles).toHaveText(GROUPS);
  expect(await groupToggles.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-expanded')))).toEqual([
    'true',
    'false',
    'false',
    'false',
  ]);

  const firstGroup = page.locator('.faq-group').nth(0);
  expect(
    await firstGroup.locator('.faq-item__toggle').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-expanded'))),
  ).toEqual(['true', 'false', 'false', 'false']);
  await expect(firstGroup.getByText('A EXA é uma empresa brasileira de segurança digital.', { exact: false })).toBeVisible();

  // The second group is closed, but its first question is already open inside it.
  const secondGroup = page.locator('.faq-group').nth(1);
  expect(
    await secondGroup
      .locator('.faq-item__toggle')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-expanded'))),
  ).toEqual(['true', 'false', 'false', 'false', 'false', 'false']);
  await page.getByRole('button', { name: 'EXA Segurança', exact: true }).click();
  await expect(secondGroup.getByText('Ele protege o seu celular com antivírus', { exact: false })).toBeVisible();

  for (const index of [2, 3]) {
    const states = await page
      .locator('.faq-group')
      .nth(index)
      .locator('.faq-item__toggle')
      .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-expanded')));
    expect(states.every((state) => state === 'false')).toBe(true);
  }
});

test('groups and questions open and close on click', async ({ page }) => {
  await page.goto('/faq');
  const cloudGroup = page.getByRole('button', { name: 'EXA Cloud', exact: true });
  const question = page.getByRole('button', { name: 'Posso ter mais de um cofre?' });
  const answer = page.getByText('Cada conta do EXA Cloud tem um único cofre', { exact: false });

  await expect(question).toBeHidden();
  await cloudGroup.click();
  await expect(cloudGroup).toHaveAttribute('aria-expanded', 'true');
  await expect(question).toBeVisible();
  await expect(answer).toBeHidden();

  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  await expect(answer).toBeVisible();

  await question.click();
  await expect(question).toHaveAttribute('aria-expanded', 'false');
  await expect(answer).toBeHidden();

  await cloudGroup.click();
  await expect(cloudGroup).toHaveAttribute('aria-expanded', 'false');
  await expect(question).toBeHidden();

  // Closing the first group hides its open answer.
  const exaGroup = page.getByRole('button', { name: 'EXA', exact: true });
  await exaGroup.click();
  await expect(exaGroup).toHaveAttribute('aria-expanded', 'false');
  await expect(page.getByText('A EXA é uma empresa brasileira de segurança digital.', { exact: false })).toBeHidden();
});

test("URLs in answers become 'clique aqui' links that open in a new tab", async ({ page }) => {
  await page.goto('/faq');
  await page.getByRole('button', { name: 'O Hero mudou de nome?' }).click();
  const answer = page.locator('.faq-item', { has: page.getByRole('button', { name: 'O Hero mudou de nome?' }) });
  await expect(answer.locator('.faq-item__answer')).not.toContainText('https://');
  const link = answer.getByRole('link', { name: 'clique aqui', exact: true });
  await expect(link).toHaveAttribute('href', 'https://www.exa.com.br/links?q=anuncio-encerramento');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);

  const [popup] = await Promise.all([page.waitForEvent('popup'), link.click()]);
  await expect(popup).toHaveURL('https://www.exa.com.br/links?q=anuncio-encerramento');

  // No raw URL is left in any answer on the page.
  const texts = await page.locator('.faq-item__answer').allTextContents();
  expect(texts.some((text) => /https?:\/\//.test(text))).toBe(false);
  expect(await page.locator('.faq-item__answer a').count()).toBeGreaterThanOrEqual(6);
  for (const label of await page.locator('.faq-item__answer a').allTextContents()) expect(label).toBe('clique aqui');
});

test("the SMS-code answer says the code expired or should be re-requested with 'Reenviar código'", async ({ page }) => {
  await page.goto('/faq');
  await page.getByRole('button', { name: 'EXA Segurança', exact: true }).click();
  await page.getByRole('button', { name: 'Meu código de verificação por SMS aparece como inválido. O que faço?' }).click();
  const answer = page.getByText('provavelmente expirou', { exact: false });
  await expect(answer).toBeVisible();
  await expect(answer).toContainText('"Reenviar código"');
  await expect(answer).toContainText('6 dígitos e vale por 15 minutos');
});
