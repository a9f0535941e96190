import { expect, test } from '../fixtures';

test('the floating icon opens a 400px panel with the host frame and Fechar closes it', async ({ page }) => {
  await page.goto('/contato');
  await expect(page.getByTestId('chatbot-panel')).toHaveCount(0);
  await page.getByRole('button', { name: 'Abrir chat de atendimento' }).click();

  const panel = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });
  await expect(panel).toBeVisible();
  await expect(panel).toHaveCSS('width', '400px');
  await expect(panel).toHaveCSS('max-height', '655px');
  const frame = panel.locator('iframe');
  await expect(frame).toHaveAttribute('src', /p=hero/);
  await expect(frame).toHaveAttribute('title', 'Chat de atendimento EXA');
  await expect(panel.getByRole('img', { name: 'Avatar da assistente virtual da EXA' })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Fechar' })).toBeFocused();

  await panel.getByRole('button', { name: 'Fechar' }).click();
  await expect(page.getByTestId('chatbot-panel')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Abrir chat de atendimento' })).toBeFocused();
});

test('the frame and avatar come from the configured chatbot host', async ({ page, request }) => {
  const config = (await (await request.get('/api/public-config')).json()) as {
    chatbotUrl: string;
    chatbotAvatarUrl: string;
  };
  await page.goto('/');
  await page.getByRole('button', { name: 'Abrir chat de atendimento' }).click();
  const panel = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });
  await expect(panel.locator('iframe')).toHaveAttribute('src', new URL(config.chatbotUrl).toString());
  await expect(panel.getByRole('img', { name: 'Avatar da assistente virtual da EXA' })).toHaveAttribute(
    'src',
    new URL(config.chatbotAvatarUrl, page.url()).toString(),
  );
});

test('?show-bot opens the panel by itself', async ({ page }) => {
  await page.goto('/?show-bot');
  const panel = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });
  await expect(panel).toBeVisible();
  await expect(panel.locator('iframe')).toHaveAttribute('src', /p=hero/);
  await panel.getByRole('button', { name: 'Fechar' }).click();
  await expect(page.getByTestId('chatbot-panel')).toHaveCount(0);
});

test('/atendimento redirects to /?show-bot with the panel open', async ({ page }) => {
  await page.goto('/atendimento');
  await expect(page).toHaveURL(/\/\?show-bot$/);
  await expect(page.getByRole('dialog', { name: 'Chat de atendimento EXA' })).toBeVisible();
});

test('without ?show-bot the panel stays closed', async ({ page }) => {
  await page.goto('/?outra=1');
  await expect(page.getByRole('button', { name: 'Abrir chat de atendimento' })).toBeVisible();
  await expect(page.getByTestId('chatbot-panel')).toHaveCount(0);
});

test.describe('under 768px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('the panel takes the full width', async ({ page }) => {
    await page.goto('/?show-bot');
    const panel = page.getByRole('dialog', { name: 'Chat de atendimento EXA' });
    await expect(panel).toBeVisible();
    await expect.poll(async () => (await panel.boundingBox())?.x).toBe(0);
    await expect.poll(async () => (await panel.boundingBox())?.width).toBe(375);
  });
});

test('/chat shows the chatbot frame in the page', async ({ page }) => {
  await page.goto('/chat');
  await expect(page.getByRole('heading', { level: 1, name: 'Chat de atendimento' })).toBeVisible();
  await expect(page.getByRole('main').locator('iframe')).toHaveAttribute('src', /p=hero/);
});
