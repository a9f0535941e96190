import { expect, test } from '../fixtures';

test.describe('home', () => {
  test('shows the hero and the four sections with their ids and cards', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Proteção digital para você e sua família' })).toBeVisible();
    const discover = page.getByRole('link', { name: 'Descubra a Exa' });
    await expect(discover).toHaveAttribute('href', '#discover-the-exa');

    await expect(page.locator('#discover-the-exa').getByRole('heading', { level: 2 })).toHaveText('Descubra a EXA');
    await expect(page.locator('#discover-the-exa').getByRole('heading', { level: 3 })).toHaveText([
      'EXA Segurança',
      'EXA Cloud',
      'Gestão Digital',
      'Proteção Pix',
    ]);

    const safer = page.locator('#you-safer');
    await expect(safer.getByRole('heading', { level: 2 })).toHaveText('Você mais seguro');
    await expect(safer.getByRole('heading', { level: 3 })).toHaveText(['Seus dados protegidos', 'Seu dinheiro seguro']);

    const press = page.locator('#exa-in-the-press');
    await expect(press.getByRole('heading', { level: 2 })).toHaveText('EXA na imprensa');
    const pressLinks = press.getByRole('link');
    await expect(pressLinks).toHaveCount(4);
    for (const link of await pressLinks.all()) {
      await expect(link).toHaveAttribute('href', /^https:\/\//);
      await expect(link).toHaveAttribute('target', '_blank');
    }

    const blows = page.locator('#dont-fall-for-blows');
    await expect(blows.getByRole('heading', { level: 2 })).toHaveText('Não caia em golpes');
    await expect(blows.getByRole('heading', { level: 3 })).toHaveText([
      'Phishing',
      'Smishing',
      'Aplicativos fraudulentos',
      'Golpe do WhatsApp',
    ]);
  });

  test('press items carry our own drawn logos, each an image file with the outlet name', async ({ page }) => {
    await page.goto('/');
    const logos = page.locator('#exa-in-the-press').getByRole('img');
    await expect(logos).toHaveCount(4);
    for (const logo of await logos.all()) {
      await expect(logo).toHaveAttribute('src', /^\/img\/press\/[a-z-]+\.svg$/);
      await expect(logo).toHaveAttribute('alt', /\S/);
      await logo.scrollIntoViewIfNeeded();
      await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    }
  });

  test("'Descubra a Exa' scrolls to the discover section", async ({ page }) => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Descubra a Exa' }).click();
    await expect(page).toHaveURL(/#discover-the-exa$/);
    await expect(page.locator('#discover-the-exa')).toBeInViewport();
  });

  test('every picture has an alt attribute', async ({ page }) => {
    await page.goto('/');
    const images = page.locator('img');
    await expect.poll(() => images.count()).toBeGreaterThan(10);
    await expect(page.locator('img:not([alt])')).toHaveCount(0);
  });
});

test('contato shows address, both e-mails, the whistleblower button and the seal', async ({ page }) => {
  await page.goto('/contato');
  await expect(page.getByRole('heading', { level: 1, name: 'Contato' })).toBeVisible();
  await expect(page.locator('address')).toContainText('São Paulo – SP');
  await expect(page.getByRole('link', { name: 'contato@exa.com.br' })).toHaveAttribute('href', 'mailto:contato@exa.com.br');
  await expect(page.getByRole('link', { name: 'imprensa@exa.com.br' })).toHaveAttribute('href', 'mailto:imprensa@exa.com.br');
  const whistleblower = page.getByRole('link', { name: 'Acessar o canal de denúncias' });
  await expect(whistleblower).toHaveAttribute('href', /^https:\/\//);
  await expect(whistleblower).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('main').getByRole('img', { name: 'Selo Empresa Ética certificada' })).toBeVisible();
});

test('contato opens the chat from its main button and keeps the whistleblower channel secondary', async ({ page }) => {
  await page.goto('/contato');
  const chat = page.getByRole('main').getByRole('button', { name: 'Conversar no chat' });
  await expect(chat).toHaveClass(/button--primary/);
  await expect(page.getByRole('link', { name: 'Acessar o canal de denúncias' })).not.toHaveClass(/button--primary/);
  await chat.click();
  await expect(page.getByRole('dialog', { name: 'Chat de atendimento EXA' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Fechar' })).toBeFocused();
});

test('contato shows the support phone and WhatsApp the operator configured', async ({ page }) => {
  await page.route('**/api/public-config', async (route) => {
    const body = await (await route.fetch()).json();
    body.company = { ...body.company, supportPhone: '0800 000 1234', supportWhatsapp: '(11) 99999-0000' };
    await route.fulfill({ json: body });
  });
  await page.goto('/contato');
  await expect(page.getByRole('link', { name: '0800 000 1234' })).toHaveAttribute('href', 'tel:08000001234');
  const whatsapp = page.getByRole('link', { name: '(11) 99999-0000' });
  await expect(whatsapp).toHaveAttribute('href', 'https://wa.me/5511999990000');
  await expect(whatsapp).toHaveAttribute('target', '_blank');
});

test('without a configured phone contato shows none', async ({ page }) => {
  await page.goto('/contato');
  await expect(page.locator('a[href^="tel:"], a[href^="https://wa.me/"]')).toHaveCount(0);
});

test('seguranca: hero with store and desktop buttons, then five feature sections', async ({ page }) => {
  await page.goto('/seguranca');
  await expect(page.getByRole('heading', { level: 1, name: 'EXA Segurança' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Disponível no Google Play' })).toHaveAttribute(
    'href',
    /^https:\/\/play\.google\.com\//,
  );
  await expect(page.getByRole('link', { name: 'Baixar na App Store' })).toHaveAttribute('href', /^https:\/\/apps\.apple\.com\//);
  await expect(page.getByRole('link', { name: 'Baixar para Windows' })).toHaveAttribute('href', '/av-desktop/download/win_pc');
  await expect(page.getByRole('link', { name: 'Baixar para Mac' })).toHaveAttribute('href', '/av-desktop/download/mac');
  await expect(page.locator('main section.feature')).toHaveCount(5);
  await expect(page.locator('main section.feature h2')).toHaveText([
    'Antivírus que trabalha por você',
    'Proteção de aplicativos',
    'Navegador seguro',
    'Mais espaço e mais bateria',
    'VPN e bloqueio de apps',
  ]);
});

test('seguranca: the Windows button leads to the desktop download route', async ({ page }) => {
  await page.goto('/seguranca');
  await page.getByRole('link', { name: 'Baixar para Windows' }).click();
  await expect(page).toHaveURL(/\/av-desktop\/download\/win_pc$/);
});

test('cloud: header button, store links and three alternating sections', async ({ page }) => {
  await page.goto('/cloud');
  await expect(page.getByRole('heading', { level: 1, name: 'EXA Cloud' })).toBeVisible();
  const access = page.getByRole('banner').getByRole('link', { name: 'Acessar meu EXA Cloud' });
  await expect(access).toBeVisible();
  await expect(access).toHaveAttribute('href', 'https://cloud.exa.com.br');
  await expect(access).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: 'Disponível no Google Play' })).toHaveAttribute('href', /br\.com\.exa\.cloud/);
  await expect(page.getByRole('link', { name: 'Baixar na App Store' })).toHaveAttribute('href', /exa-cloud/);
  const sections = page.locator('main section.feature');
  await expect(sections.locator('h2')).toHaveText([
    'Suas fotos e vídeos em qualquer lugar',
    'Playlists para ouvir offline',
    'Compartilhe do seu jeito',
  ]);
  // Alternating: the middle section puts its picture on the other side.
  await expect(sections.nth(0)).not.toHaveClass(/feature--reverse/);
  await expect(sections.nth(1)).toHaveClass(/feature--reverse/);
  await expect(sections.nth(2)).not.toHaveClass(/feature--reverse/);
  const first = await sections.nth(0).locator('img').boundingBox();
  const second = await sections.nth(1).locator('img').boundingBox();
  expect(first && second && first.x < 400 && second.x > 600).toBe(true);
});

test('the cloud button is only in the header of /cloud', async ({ page }) => {
  await page.goto('/seguranca');
  await expect(page.getByRole('banner').getByRole('link', { name: 'Acessar meu EXA Cloud' })).toHaveCount(0);
});

test('gestao: store links and the three sections', async ({ page }) => {
  await page.goto('/gestao');
  await expect(page.getByRole('heading', { level: 1, name: 'Gestão Digital' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Disponível no Google Play' })).toHaveAttribute('href', /br\.com\.exa\.gestao/);
  await expect(page.getByRole('link', { name: 'Baixar na App Store' })).toHaveAttribute('href', /exa-gestao-digital/);
  await expect(page.locator('main section.feature h2')).toHaveText([
    'Localização em tempo real',
    'Áreas favoritas',
    'Peça ajuda com um toque',
  ]);
});

test('seguranca/brisanet: banner, four cards with Saiba mais, and Ativar agora', async ({ page }) => {
  await page.goto('/seguranca/brisanet');
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Garanta a Proteção Digital da sua família' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Como atendemos?' })).toBeVisible();
  const cards = page.locator('.gallery-card');
  await expect(cards.locator('h3')).toHaveText(['Antivírus', 'Proteção de aplicativos', 'Liberar espaço', 'Navegador seguro']);
  const more = cards.getByRole('link', { name: /^Saiba mais/ });
  await expect(more).toHaveCount(4);
  await expect(more).toHaveText(['Saiba mais', 'Saiba mais', 'Saiba mais', 'Saiba mais']);
  for (const link of await more.all()) await expect(link).toHaveAttribute('href', '/seguranca');
  await expect(page.getByRole('heading', { level: 2, name: 'Já tem o EXA Segurança?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ativar agora' })).toHaveAttribute('href', '/seguranca/ativarbrisanet');
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await more.first().click();
  await expect(page).toHaveURL(/\/seguranca$/);
  await expect(page.getByRole('heading', { level: 1, name: 'EXA Segurança' })).toBeVisible();
});

test.describe('terms', () => {
  for (const path of ['/assets/termos-de-uso.htm', '/assets/politica-de-privacidade.htm']) {
    test(`${path} shows the shared terms screen with its PDF`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Termos de uso e Privacidade' })).toBeVisible();
      await expect(page.getByRole('heading', { level: 2, name: '5. Seus direitos (LGPD)' })).toBeVisible();
      await expect(
        page.getByRole('link', { name: 'Baixar os termos de uso e a política de privacidade em PDF' }),
      ).toHaveAttribute('href', '/assets/termos-de-uso-e-privacidade.pdf');
    });
  }

  test('the terms PDF is a real PDF file', async ({ request }) => {
    const response = await request.get('/assets/termos-de-uso-e-privacidade.pdf');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
    expect((await response.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  test('/termos redirects to the external terms page', async ({ page }) => {
    await page.goto('/');
    // Navigating by script: the redirect leaves the site before a page could be audited.
    await page.evaluate(() => window.location.assign('/termos'));
    await expect(page).toHaveURL('https://privacidade.exa.com.br/termos-de-uso-e-privacidade');
  });
});

test('an unknown path shows the not-found page', async ({ page }) => {
  await page.goto('/nao-existe');
  await expect(page.getByRole('heading', { level: 1, name: 'Página não encontrada' })).toBeVisible();
});

test('the not-found page sits inside the site layout, answers HTTP 404 and leads back', async ({ page }) => {
  const response = await page.goto('/seguranca/nao-existe');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Página não encontrada' })).toBeVisible();
  await expect(page.getByRole('banner')).toBeVisible();
  await expect(page.getByRole('contentinfo')).toBeVisible();
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await page.getByRole('main').getByRole('link', { name: 'Voltar para o início' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Proteção digital para você e sua família' })).toBeVisible();
});

test('every route of the table answers 200, parameterised ones too', async ({ request }) => {
  for (const path of ['/', '/contato', '/faq', '/links?q=nc-exa', '/assets/termos-de-uso.htm', '/assets/politica-de-privacidade.htm', '/assets/termos-de-uso-e-privacidade.pdf', '/av-desktop/download/win_pc', '/av-desktop/download/mac', '/seguranca/tim', '/cloud/positivo']) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(200);
  }
  expect((await request.get('/algo/que/nao/existe')).status()).toBe(404);
});
